"""Logs: one line per event, JSON with LOG_FORMAT=json, request ids; Sentry only with a
DSN, and redacted."""

import io
import json
import logging
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
import sentry_sdk

from core.logs import error_reports
from core.logs.request_log import JsonFormatter, RequestIdFilter, request_id_from
from core.redaction import REDACTED, RedactingFilter
from tests.servers import free_port, wait_until

ROOT = Path(__file__).resolve().parents[2]
API_KEY = "pz_" + "A" * 43  # the shape of accounts.models.ApiToken's keys
SLOW_PATH = "/slow-for-the-time-limit/"  # tests/ops/slow_wsgi.py's


# --- Request ids ------------------------------------------------------------------------


def test_a_well_formed_proxy_id_is_kept_and_echoed(client):
    response = client.get("/healthz", HTTP_X_REQUEST_ID="0123456789abcdef0123456789abcdef")
    assert response["X-Request-ID"] == "0123456789abcdef0123456789abcdef"


@pytest.mark.parametrize(
    "given", [None, "", "short", "x" * 65, "id\nFORGED log line", "anna@example.com"]
)
def test_anything_else_gets_a_new_id(given):
    new = request_id_from(given)
    assert new != given and len(new) == 32 and int(new, 16) >= 0


def test_the_id_is_on_answers_other_middleware_replaced(client):
    """An unknown /api/ address: ApiErrorsAsJsonMiddleware replaces Django's 404 page."""
    response = client.get("/api/no-such-thing/", HTTP_X_REQUEST_ID="proxy-id-1234")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response["X-Request-ID"] == "proxy-id-1234"


# --- The JSON format --------------------------------------------------------------------


def configured_handler(buffer) -> logging.Handler:
    """A handler as settings.LOGGING builds it with LOG_FORMAT=json."""
    handler = logging.StreamHandler(buffer)
    handler.addFilter(RedactingFilter())
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter())
    return handler


def test_a_json_line_is_one_object_with_the_documented_fields_and_nothing_secret():
    buffer = io.StringIO()
    logger = logging.getLogger("tests.ops.json")
    # The test owns its logger: an earlier test in the same process may have left a level
    # or a global logging.disable() behind (make test runs the suite in one process).
    disabled_before, level_before = logging.root.manager.disable, logger.level
    logging.disable(logging.NOTSET)
    logger.setLevel(logging.DEBUG)
    logger.addHandler(handler := configured_handler(buffer))
    try:
        logger.warning("key %s of anna@example.com\nsecond line", API_KEY)
        try:
            raise ValueError(f"bad key {API_KEY}")
        except ValueError:
            logger.exception("failed")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level_before)
        logging.disable(disabled_before)
    lines = buffer.getvalue().splitlines()
    assert len(lines) == 2  # one line per event, newlines and tracebacks inside
    first, second = (json.loads(line) for line in lines)
    assert set(first) == {"time", "level", "logger", "message", "request_id"}
    assert first["level"] == "WARNING" and first["logger"] == "tests.ops.json"
    assert first["request_id"] == "-"  # outside a request
    assert first["message"] == f"key {REDACTED} of a***@example.com\nsecond line"
    assert "ValueError" in second["exception"]
    assert API_KEY not in buffer.getvalue() and "anna@" not in buffer.getvalue()


def run_settings(script: str, **env) -> subprocess.CompletedProcess:
    """``script`` in a fresh process on the production settings with ``env``."""
    environment = {
        **{k: v for k, v in os.environ.items() if k not in ("SENTRY_DSN", "LOG_FORMAT")},
        "DJANGO_SETTINGS_MODULE": "piratz_site.settings",
        "SECRET_KEY": "k" * 50,
        **env,
    }
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_log_format_json_makes_every_handler_write_json():
    script = """
import logging
import django
django.setup()
logging.getLogger("games").warning("moved for bert@example.com")
logging.getLogger("django.server").info("GET /healthz 200")
import warnings
warnings.warn("a Python warning, which Python itself writes as plain text")
"""
    done = run_settings(script, LOG_FORMAT="json")
    assert done.returncode == 0, done.stderr
    entries = [json.loads(line) for line in done.stderr.splitlines()]
    assert [entry["logger"] for entry in entries] == ["games", "django.server", "py.warnings"]
    assert entries[0]["message"] == "moved for b***@example.com"


def test_gunicorn_writes_its_own_lines_as_json_too(tmp_path):
    """A real gunicorn with LOG_FORMAT=json: its start, its workers' boots and exits, the
    request time limit's line and (asked for) its access log are JSON lines like Django's,
    redacted; no line of either output is plain text."""
    port = free_port()
    signed = "eyJ1c2VyIjoxfQ:1tAbCd:" + "S" * 43  # the shape of a signed login token
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("SENTRY_DSN", "LOG_FORMAT")},
        "DJANGO_SETTINGS_MODULE": "piratz_site.settings",
        "SECRET_KEY": "k" * 50,
        "LOG_FORMAT": "json",
        "GUNICORN_REQUEST_TIME_LIMIT": "1",
        "GUNICORN_WORKERS": "1",
        "GUNICORN_THREADS": "2",
    }
    command = [str(Path(sys.executable).parent / "gunicorn"), "tests.ops.slow_wsgi:application"]
    command += ["--bind", f"127.0.0.1:{port}", "--log-level", "info", "--access-logfile", "-"]
    log = tmp_path / "gunicorn.log"
    with log.open("w") as output:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until(lambda: _answers(f"{base}/healthz?next={signed}"), 30, "gunicorn to serve")
        # Over the limit: its worker stops gracefully (after answering), the master boots another.
        assert _answers(base + SLOW_PATH)
        wait_until(lambda: log.read_text().count("Booting worker") >= 2, 30, "a second worker")
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)
    text = log.read_text()
    entries = []
    for line in text.splitlines():
        try:
            entries.append(json.loads(line))
        except ValueError:
            pytest.fail(f"not a JSON line: {line!r}\n{text}")
    assert all({"time", "level", "logger", "message", "request_id"} <= set(e) for e in entries)
    messages = [entry["message"] for entry in entries]
    assert any(message.startswith("Starting gunicorn") for message in messages)
    assert any(f"GET {SLOW_PATH} has run over 1 s" in m for m in messages)
    assert any("GET /healthz" in message for message in messages)  # the access log
    assert signed not in text and "[redacted]" in text


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status == 200
    except OSError:
        return False


def test_an_unknown_log_format_stops_the_start():
    done = run_settings("import django; django.setup()", LOG_FORMAT="xml")
    assert done.returncode != 0
    assert "LOG_FORMAT must be plain or json" in done.stderr


# --- Sentry -----------------------------------------------------------------------------


@pytest.fixture
def sentry_init_calls(monkeypatch):
    """Calls to ``sentry_sdk.init``, which is replaced: no client starts, nothing is sent."""
    calls = []
    monkeypatch.setattr(sentry_sdk, "init", lambda **options: calls.append(options))
    return calls


def test_without_a_dsn_sentry_is_not_started(sentry_init_calls):
    assert error_reports.init_error_reports("") is False
    assert sentry_init_calls == []


def test_with_a_dsn_sentry_starts_with_no_personal_data(sentry_init_calls):
    dsn = "https://public@sentry.example/1"
    assert error_reports.init_error_reports(dsn, environment="prod") is True
    (options,) = sentry_init_calls
    assert options["dsn"] == dsn and options["environment"] == "prod"
    assert options["send_default_pii"] is False
    assert options["include_local_variables"] is False
    assert options["max_request_body_size"] == "never"
    assert options["before_send"] is error_reports.scrub_event
    names = {type(integration).__name__ for integration in options["integrations"]}
    assert names == {"DjangoIntegration", "CeleryIntegration"}


def test_the_settings_start_sentry_only_with_sentry_dsn():
    """In a fresh process on the production settings; the client sends nothing unasked."""
    script = """
import django
django.setup()
import sentry_sdk
print(sentry_sdk.get_client().is_active())
"""
    without = run_settings(script)
    with_dsn = run_settings(script, SENTRY_DSN="http://public@127.0.0.1:9/1")
    assert without.stdout.strip() == "False", without.stderr
    assert with_dsn.stdout.strip() == "True", with_dsn.stderr


def test_an_event_leaves_redacted():
    event = {
        "message": f"key {API_KEY}",
        "logentry": {"message": "for %s", "params": ["anna@example.com"]},
        "exception": {"values": [{"type": "ValueError", "value": f"bad {API_KEY}"}]},
        "breadcrumbs": {"values": [{"message": "mail to carla@example.com"}]},
        "request": {"url": "https://piratz.example/accounts/login/abc.def/"},
    }
    scrubbed = json.dumps(error_reports.scrub_event(event, {}))
    assert API_KEY not in scrubbed
    assert "anna@" not in scrubbed and "carla@" not in scrubbed
    assert "abc.def" not in scrubbed
    assert "ValueError" in scrubbed
