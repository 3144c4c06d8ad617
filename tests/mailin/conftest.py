"""Replies by email: the reply address configured, messages built as mail clients send them."""

import hashlib
import hmac
import io
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from django.core.management import call_command

from games.models import Game, GameStatus
from notifications.models import OutboundEmail

REPLY_ADDRESS = "play@in.example.com"
SIGNING_KEY = "mailgun-test-signing-key"


@pytest.fixture(autouse=True)
def _replies_on(settings):
    settings.REPLY_ADDRESS = REPLY_ADDRESS
    settings.ANYMAIL = {"MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY}


def reply_to_of(email: OutboundEmail) -> str:
    return email.headers["Reply-To"]


def latest_reply_to(user) -> str:
    """The Reply-To of the newest email queued to ``user`` that has one."""
    email = (
        OutboundEmail.objects.filter(to=user.email, headers__has_key="Reply-To")
        .order_by("-id")
        .first()
    )
    assert email is not None, f"no email with a Reply-To to {user.email}"
    return reply_to_of(email)


def build_reply(
    sender: str,
    to: str,
    text: str | None,
    *,
    html: str | None = None,
    subject: str = "Re: Your turn in Piratz",
    headers: dict | None = None,
) -> bytes:
    """A reply as a mail client writes it: the player's line above the quoted turn email."""
    message = EmailMessage()
    message["From"] = f"Player <{sender}>"
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain="client.example")
    for name, value in (headers or {}).items():
        message[name] = value
    if text is not None:
        message.set_content(text)
        if html is not None:
            message.add_alternative(html, subtype="html")
    else:
        message.set_content(html, subtype="html")
    return message.as_bytes()


def pipe(raw: bytes, **options) -> None:
    """Feed ``raw`` to ``manage.py receive_email`` on its standard input."""
    call_command("receive_email", stdin=io.BytesIO(raw), **options)


def mailgun_post(client, raw: bytes, *, key: str = SIGNING_KEY):
    """POST ``raw`` as Mailgun's route forward() does (raw MIME), signed with ``key``."""
    timestamp, token = "1700000000", "a" * 50
    signature = hmac.new(key.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    return client.post(
        "/inbound/mailgun/",
        {
            "body-mime": raw.decode(),
            "timestamp": timestamp,
            "token": token,
            "signature": signature,
            "recipient": "",
            "sender": "",
        },
    )


def players_to_move(game: Game, people: dict):
    """Each turn of ``game`` until it is no longer active, ``people``'s player to move;
    ``game`` is refreshed from the database in place before each."""
    while True:
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return
        yield people[game.current_seat]


def reply_as(player, client, line: str, *, by_webhook: bool) -> None:
    """``player`` replies ``line`` above a quoted email to their newest email's Reply-To,
    through the provider's webhook (``client``) or else the pipe."""
    text = f"{line}\n\nOn Monday, Piratz wrote:\n> old"
    raw = build_reply(player.email, latest_reply_to(player), text)
    if by_webhook:
        assert mailgun_post(client, raw).status_code == 200
    else:
        pipe(raw)
