"""Fixtures for outbox tests: test-only email templates, emails in the outbox, a failing server."""

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.core.mail.backends import locmem

from notifications.models import OutboundEmail

TEMPLATES_DIR = Path(__file__).parent / "templates"
# A fixed, ordinary moment; tests move time from here.
NOON = datetime(2030, 5, 1, 12, 0, tzinfo=UTC)
# Where the game email tests start: Tuesday 19 November 2030, 09:00 UTC (10:00 in Berlin, CET).
START = datetime(2030, 11, 19, 9, 0, tzinfo=UTC)

# What templates/emails/test_message/ needs; names with "&" prove the escaping rules.
TURN_CONTEXT = {
    "name": "Tom & Jerry",
    "game_name": "Skull <Bay>",
    "opponent": "Anna",
    "game_id": "0b5e",
}


@pytest.fixture(autouse=True)
def _test_email_templates(settings):
    """Let the tests render emails/test_message without it being a production template."""
    engine = settings.TEMPLATES[0]
    settings.TEMPLATES = [{**engine, "DIRS": [TEMPLATES_DIR, *engine["DIRS"]]}]


@pytest.fixture
def now(time_machine) -> datetime:
    """Time stands still at NOON until a test moves it."""
    time_machine.move_to(NOON, tick=False)
    return NOON


@pytest.fixture
def site_and_clock(settings, time_machine) -> None:
    """The game email tests' world: links to https://piratz.example, time still at START."""
    settings.SITE_URL = "https://piratz.example"
    time_machine.move_to(START, tick=False)


def time_out(game, time_machine):
    """Move the clock to ``game``'s deadline and let the service play its timeout (rules
    P24), as the deadline sweep would; the game as it is after."""
    from games import actions

    time_machine.move_to(game.deadline, tick=False)
    actions.do_play_timeout(game.id, expected_version=game.version)
    game.refresh_from_db()
    return game


def emails(kind: str, to=None) -> list[OutboundEmail]:
    """The outbox's emails of one ``kind`` (template), oldest first, rendered (their content
    read as the worker sends it); only ``to``'s if given."""
    rows = OutboundEmail.objects.filter(template=kind).order_by("id")
    return [row.rendered() for row in (rows if to is None else rows.filter(to=to.email))]


@pytest.fixture
def make_email(db) -> Callable[..., OutboundEmail]:
    """Write an outbox row directly (no rendering, no send scheduled); fields override."""

    def make(**fields) -> OutboundEmail:
        values = {
            "to": "player@example.com",
            "subject": "Your turn in Skull Bay",
            "body_text": "Secret hand: 3 rats.\n",
            "body_html": "<p>Secret hand: 3 rats.</p>",
            "template": "test_message",
            **fields,
        }
        return OutboundEmail.objects.create(**values)

    return make


@pytest.fixture
def mail_server_fails(monkeypatch) -> Callable[..., None]:
    """``mail_server_fails(exc, ...)``: the next sends raise these, in order; later ones work."""
    errors: list[Exception] = []
    deliver = locmem.EmailBackend.send_messages

    def send_messages(self, messages):
        if errors:
            raise errors.pop(0)
        return deliver(self, messages)

    def fail_next(*excs: Exception) -> None:
        errors.extend(excs)

    monkeypatch.setattr(locmem.EmailBackend, "send_messages", send_messages)
    return fail_next
