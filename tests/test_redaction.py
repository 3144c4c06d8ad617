"""Credentials and addresses never reach a log line: the text rules and the logging set-up."""

import io
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core import signing
from django.test import Client

from accounts.models import ApiToken
from core.redaction import (
    REDACTED,
    RedactingFilter,
    mask_addresses,
    mask_email,
    redact_text,
    redact_tokens,
)
from games import actions
from games.invitation_links import invitation_token

BASE_DIR = Path(settings.BASE_DIR)
GAME_ID = "0b5e4a2c-1111-2222-3333-444455556666"


def signed_tokens() -> dict[str, str]:
    """One token of every shape Django's signing makes, as our links use them."""
    nonce = "n0nce-that-must-go"
    return {
        "login (dumps, compressed)": signing.dumps(
            {"n": nonce, "e": "anna@example.com", "x": "/games/" + "x" * 80},
            salt="accounts.login-link",
            compress=True,
        ),
        "invitation (dumps)": signing.dumps({"g": GAME_ID, "u": 3}, salt="games.invitation"),
        "unsubscribe (Signer.sign)": signing.Signer(salt="unsub").sign("12:your_turn"),
        "entry (sign_object)": signing.Signer(salt="entry").sign_object({"g": GAME_ID, "u": 1}),
        "timestamped string": signing.TimestampSigner(salt="x").sign("anna@example.com"),
    }


@pytest.mark.parametrize("kind", list(signed_tokens()))
@pytest.mark.parametrize(
    "template",
    [
        "Log in: {site}/accounts/login/{token}/\n",
        '<a href="{site}/invitations/{token}/">Answer</a>',
        "<{site}/unsubscribe/{token}/>",
        "Bad Request: /games/" + GAME_ID + "/enter/{token}/",
        '"POST /somewhere/new/{token}/?x=1 HTTP/1.1" 400 12',  # a route we do not know yet
        "token={token}&next=/",
        "Your token is {token}.",
    ],
)
def test_every_signed_token_is_redacted_wherever_it_stands(kind, template):
    token = signed_tokens()[kind]
    text = template.format(site=settings.SITE_URL, token=token)

    redacted = redact_tokens(text)

    assert token not in redacted
    # All of it: the payload of a login link carries its nonce.
    assert redacted == template.format(site=settings.SITE_URL, token=REDACTED)


def test_percent_encoded_separators_are_recognised():
    token = signing.dumps({"g": GAME_ID, "u": 3}, salt="games.invitation")
    line = '"POST /x/' + token.replace(":", "%3A") + '/ HTTP/1.1" 400'

    assert redact_tokens(line) == '"POST /x/' + REDACTED + '/ HTTP/1.1" 400'


def test_anything_in_a_token_route_is_redacted_even_when_it_is_not_a_valid_token():
    text = (
        "/accounts/login/truncated-copy/ /invitations/abc/ /unsubscribe/x:y/ "
        f"/games/{GAME_ID}/enter/z/"
    )

    assert redact_tokens(text) == (
        f"/accounts/login/{REDACTED}/ /invitations/{REDACTED}/ /unsubscribe/{REDACTED}/ "
        f"/games/{GAME_ID}/enter/{REDACTED}/"
    )


@pytest.mark.django_db
def test_api_keys_are_redacted(anna):
    key = ApiToken.issue(anna)

    assert redact_tokens(f"Authorization: Token {key}") == f"Authorization: Token {REDACTED}"
    assert redact_tokens(f"Authorization: Bearer {key}.") == f"Authorization: Bearer {REDACTED}."


@pytest.mark.parametrize(
    "text",
    [
        "Email 17: attempt 2 failed (transient), now pending: timed out",
        f"game {GAME_ID} created by user 3 for 4 players",
        f"topic game:{GAME_ID}",  # a UUID after a colon is not a signature
        "http://127.0.0.1:8000/accounts/login/ and /accounts/login/?next=/games/",
        "sha256 " + "a" * 64,
        "",
    ],
)
def test_text_without_credentials_is_left_alone(text):
    assert redact_tokens(text) == text


def test_redaction_is_idempotent():
    token = signed_tokens()["login (dumps, compressed)"]
    text = f"Log in: {settings.SITE_URL}/accounts/login/{token}/ (anna@example.com)"

    once = redact_text(text)

    assert redact_text(once) == once


def test_a_long_text_is_redacted_in_linear_time():
    # A regex that backtracks over each run would take minutes on this.
    text = "x" * 200_000 + ":" + "y" * 42 + " " + ":a" * 50_000

    assert redact_tokens(text) == text


def test_addresses_are_masked_in_free_text():
    error = "SMTPRecipientsRefused: {'anna.b+piratz@mail.example.com': (550, b'No such user')}"

    assert mask_addresses(error) == (
        "SMTPRecipientsRefused: {'a***@mail.example.com': (550, b'No such user')}"
    )
    assert mask_addresses(mask_addresses(error)) == mask_addresses(error)
    assert mask_email("anna@example.com") == "a***@example.com"


def test_the_login_pages_mask_with_the_same_function():
    from accounts import login_links

    assert login_links.mask_email is mask_email


# --- The log filter ---------------------------------------------------------------------


def record(msg, *args, **extra) -> logging.LogRecord:
    made = logging.LogRecord("django.request", logging.WARNING, __file__, 1, msg, args, None)
    made.__dict__.update(extra)
    return made


def test_filter_redacts_the_message_and_arguments_of_any_type():
    token = signed_tokens()["invitation (dumps)"]

    class Path:  # an argument whose str() carries the token
        def __str__(self):
            return f"/invitations/{token}/"

    log = record("%s: %s for %s", "Bad Request", Path(), "bert@example.com")

    assert RedactingFilter().filter(log) is True
    assert log.getMessage() == f"Bad Request: /invitations/{REDACTED}/ for b***@example.com"


def test_filter_leaves_clean_records_as_they_are():
    log = record("Email %s: attempt %d failed", 17, 2)

    RedactingFilter().filter(log)

    assert (log.msg, log.args) == ("Email %s: attempt %d failed", (17, 2))


def test_filter_redacts_exception_text():
    token = signed_tokens()["login (dumps, compressed)"]
    try:
        raise ValueError(f"cannot read {token}")
    except ValueError:
        log = record("boom", exc_info=sys.exc_info())

    RedactingFilter().filter(log)

    assert "ValueError: cannot read [redacted]" in log.exc_text
    assert token not in logging.Formatter().format(log)


def test_filter_gives_the_handler_a_redacted_copy_of_the_request(rf):
    token = signed_tokens()["invitation (dumps)"]
    request = rf.post(f"/invitations/{token}/?again={token}")
    assert request.GET["again"] == token  # parsed, and cached on the request
    log = record("Bad Request: %s", request.path, request=request, status_code=400)

    RedactingFilter().filter(log)

    shown = log.request
    assert shown.path == shown.path_info == f"/invitations/{REDACTED}/"
    assert token not in shown.get_full_path()
    assert token not in repr(shown.META)
    assert shown.GET["again"] == REDACTED
    # The live request, which middleware may still use, is untouched.
    assert request.path == f"/invitations/{token}/"
    assert token in request.META["QUERY_STRING"]


# --- Logging as configured --------------------------------------------------------------


@pytest.fixture
def log_output():
    """What the configured handlers write (console and runserver's), read as one text."""
    handlers = [logging.getHandlerByName(name) for name in ("console", "django.server")]
    assert all(handlers), "settings.LOGGING must define the console and django.server handlers"
    buffer = io.StringIO()
    saved = [handler.setStream(buffer) for handler in handlers]
    yield buffer
    for handler, stream in zip(handlers, saved, strict=True):
        handler.setStream(stream)


@pytest.mark.django_db
def test_a_bad_invitation_post_logs_no_token(anna, bert, log_output):
    """The 400 for a POST without a decision: Django logs the path, and the token worked."""
    game = actions.do_create_game(anna, [anna.email, bert.email])
    token = invitation_token(game, game.seats.get(user=bert))

    response = Client().post(f"/invitations/{token}/", {})

    assert response.status_code == 400
    written = log_output.getvalue()
    assert f"WARNING django.request Bad Request: /invitations/{REDACTED}/" in written
    assert token not in written
    assert token.split(":")[0] not in written


def test_every_configured_handler_redacts():
    """In a fresh process (no pytest handlers): every handler of every logger."""
    script = """
import logging
import django
django.setup()
from core.redaction import RedactingFilter
loggers = [logging.root, *(l for l in logging.root.manager.loggerDict.values()
                           if isinstance(l, logging.Logger))]
handlers = {h for logger in loggers for h in logger.handlers
            if not isinstance(h, logging.NullHandler)}  # libraries' "no output" default
assert handlers, "no handler configured"
for handler in handlers:
    assert any(isinstance(f, RedactingFilter) for f in handler.filters), handler
print(len(handlers), "handlers")
"""
    result = run_python(script)

    assert result.returncode == 0, result.stderr
    assert "handlers" in result.stdout


def run_python(script: str, **env) -> subprocess.CompletedProcess:
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "piratz_site.settings",
        "DEBUG": "true",  # as `make run`: Django's own console handler is active then
        "LOG_LEVEL": "INFO",
        **env,
    }
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("logger", ["django.request", "django.utils.autoreload", "games"])
def test_a_log_line_is_printed_once(logger):
    """`make run` (DEBUG on) printed every django.* line twice: Django's handler and ours."""
    script = f"""
import logging
import django
django.setup()
logging.getLogger({logger!r}).warning("probe line")
"""
    result = run_python(script)

    assert result.returncode == 0, result.stderr
    assert result.stderr.count("probe line") == 1, result.stderr


def test_a_celery_worker_keeps_the_redacting_handlers():
    """A worker sets up its logging at start; it must not swap in unfiltered handlers."""
    token = signed_tokens()["invitation (dumps)"]
    script = f"""
import logging
import django
django.setup()
from piratz_site.celery import app
app.log.setup_logging_subsystem(loglevel="INFO")  # what `celery worker` does at start
logging.getLogger("notifications.outbox").warning("sending /invitations/{token}/ to x@y.example")
"""
    result = run_python(script)

    assert result.returncode == 0, result.stderr
    assert f"sending /invitations/{REDACTED}/ to x***@y.example" in result.stderr
    assert token not in result.stderr


def test_every_route_that_takes_a_token_is_redacted_in_paths():
    """A new page with a <token> in its path must be added to redaction's routes."""
    from django.urls import URLPattern, URLResolver, get_resolver

    def routes(patterns, prefix=""):
        for entry in patterns:
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                yield from routes(entry.url_patterns, route)
            elif isinstance(entry, URLPattern) and "<str:token>" in route:
                yield route

    found = list(routes(get_resolver().url_patterns))
    assert len(found) >= 4  # login, invitation, unsubscribe, game entry
    for route in found:
        path = "/" + route.replace("<str:token>", "NotASignedToken")
        path = re.sub(r"<uuid:\w+>", GAME_ID, re.sub(r"<int:\w+>", "7", path))
        assert "NotASignedToken" not in redact_tokens(path), route
