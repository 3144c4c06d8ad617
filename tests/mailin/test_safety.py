"""What is dropped without an answer, rate limits, and the token kept out of storage and logs."""

import logging
import re
from datetime import timedelta

import pytest
import time_machine
from django.db import OperationalError
from django.utils import timezone

from core.redaction import redact_tokens
from games.models import Game, Move
from games.notify import reminder
from mailin import handler
from notifications.models import OutboundEmail
from tests.factories import start_game

from .conftest import build_reply, latest_reply_to, pipe

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(anna, bert):
    """Anna (seat 0) against Bert, seed 7: Anna is to move at version 0."""
    return start_game([anna, bert])


def answers():
    return OutboundEmail.objects.filter(template="mail_answer")


def nothing_happened(game):
    return Game.objects.get(id=game.id).version == 0 and not answers().exists()


def test_a_reply_from_another_address_is_dropped_without_an_answer(duel, anna, carla, caplog):
    caplog.set_level(logging.INFO, logger="mailin")
    pipe(build_reply(carla.email, latest_reply_to(anna), "reveal"))
    assert nothing_happened(duel)
    assert not OutboundEmail.objects.filter(to=carla.email).exists()
    assert "c***@example.com dropped: wrong_sender" in caplog.text


def test_the_sender_is_compared_after_normalisation(duel, anna):
    pipe(build_reply("  ANNA@Example.COM", latest_reply_to(anna), "reveal"))
    assert Game.objects.get(id=duel.id).version == 1


@pytest.mark.parametrize(
    ("headers", "subject"),
    [
        ({"Auto-Submitted": "auto-replied"}, "Re: Your turn"),
        ({"Auto-Submitted": "auto-generated"}, "Re: Your turn"),
        ({"X-Autoreply": "yes"}, "Re: Your turn"),
        ({"X-Autorespond": "yes"}, "Re: Your turn"),
        ({"Precedence": "bulk"}, "Re: Your turn"),
        ({"Precedence": "auto_reply"}, "Re: Your turn"),
        ({"List-Id": "<players.lists.example>"}, "Re: Your turn"),
        ({}, "Out of Office: Re: Your turn"),
        ({}, "Automatic reply: Your turn"),
        ({}, "Abwesenheitsnotiz: Dein Zug"),
        ({}, "Automatische Antwort: Dein Zug"),
    ],
)
def test_auto_replies_are_dropped_without_an_answer(duel, anna, headers, subject):
    # A vacation responder quotes the email; its first line must never be played.
    raw = build_reply(anna.email, latest_reply_to(anna), "reveal", subject=subject, headers=headers)
    pipe(raw)
    assert nothing_happened(duel)


def test_auto_submitted_no_is_a_person(duel, anna):
    pipe(build_reply(anna.email, latest_reply_to(anna), "reveal", headers={"Auto-Submitted": "no"}))
    assert Game.objects.get(id=duel.id).version == 1


def _tampered(address: str) -> str:
    local, _, domain = address.partition("@")
    return local[:-3] + ("aaa" if not local.endswith("aaa") else "bbb") + "@" + domain


@pytest.mark.parametrize(
    "recipient",
    [
        lambda address: "play@in.example.com",
        lambda address: _tampered(address),
        lambda address: address.replace("@in.example.com", "@elsewhere.example"),
        lambda address: "anna@example.com",
    ],
    ids=["no-tag", "tampered", "other-domain", "not-ours"],
)
def test_a_message_without_a_valid_token_gets_no_reply(duel, anna, recipient, caplog):
    caplog.set_level(logging.INFO, logger="mailin")
    pipe(build_reply(anna.email, recipient(latest_reply_to(anna)), "reveal"))
    assert nothing_happened(duel)  # no answer at all: no backscatter to a forged sender
    assert "dropped: no_token" in caplog.text


def test_an_expired_token_gets_no_reply(duel, anna, settings):
    settings.REPLY_TOKEN_MAX_AGE_DAYS = 3
    address = latest_reply_to(anna)
    with time_machine.travel(timezone.now() + timedelta(days=3, hours=1)):
        pipe(build_reply(anna.email, address, "reveal"))
    assert nothing_happened(duel)


def test_replies_are_rate_limited_per_address(duel, anna, settings, caplog):
    settings.MAILIN_PER_ADDRESS_PER_HOUR = 3
    address = latest_reply_to(anna)
    next_hour = timezone.now().replace(minute=1) + timedelta(hours=1)  # one counting window
    with time_machine.travel(next_hour, tick=False) as clock:
        for _ in range(4):
            pipe(build_reply(anna.email, address, "nonsense"))
        assert answers().count() == 3  # the fourth was dropped, not answered
        assert "a***@example.com dropped: rate_limited" in caplog.text
        clock.shift(timedelta(hours=1))
        pipe(build_reply(anna.email, address, "reveal"))
    assert Game.objects.get(id=duel.id).version == 1


def test_forged_mail_to_ones_own_token_does_not_use_up_another_players_allowance(
    duel, anna, bert, carla, settings, caplog
):
    # Carla holds a reply token of her own (her game with Bert): 60 messages to it that
    # claim to come from Anna are dropped as wrong_sender, and must not count as Anna's.
    settings.MAILIN_PER_ADDRESS_PER_HOUR = 60
    start_game([carla, bert])
    carlas_address = latest_reply_to(carla)
    next_hour = timezone.now().replace(minute=1) + timedelta(hours=1)  # one counting window
    with time_machine.travel(next_hour, tick=False):
        for _ in range(60):
            pipe(build_reply(anna.email, carlas_address, "reveal"))
        assert caplog.text.count("a***@example.com dropped: wrong_sender") == 60
        pipe(build_reply(anna.email, latest_reply_to(anna), "reveal"))
    assert Game.objects.get(id=duel.id).version == 1


def test_another_players_message_id_does_not_make_a_reply_a_copy(duel, anna, bert, carla):
    # Anyone may write any Message-ID; Carla's own (authenticated) message with the ID of
    # Anna's reply must not make Anna's reply "a copy already handled".
    start_game([carla, bert])
    message_id = "<same-id@client.example>"
    pipe(with_message_id(build_reply(carla.email, latest_reply_to(carla), "nonsense"), message_id))
    pipe(with_message_id(build_reply(anna.email, latest_reply_to(anna), "reveal"), message_id))
    assert Game.objects.get(id=duel.id).version == 1


def with_message_id(raw: bytes, message_id: str) -> bytes:
    return re.sub(rb"(?m)^Message-ID: .*$", b"Message-ID: " + message_id.encode(), raw)


def test_a_message_delivered_twice_is_answered_once(duel, anna):
    raw = build_reply(anna.email, latest_reply_to(anna), "nonsense")
    pipe(raw)
    pipe(raw)
    assert answers().count() == 1


def test_the_envelope_recipient_carries_the_token_when_the_headers_do_not(duel, anna):
    address = latest_reply_to(anna)
    pipe(build_reply(anna.email, "Piratz <piratz@example.org>", "reveal"), recipient=address)
    assert Game.objects.get(id=duel.id).version == 1


def test_an_html_only_reply_is_read(duel, anna):
    html = "<div dir='ltr'>Aufdecken</div><blockquote><p>pass coins</p></blockquote>"
    pipe(build_reply(anna.email, latest_reply_to(anna), None, html=html))
    assert Move.objects.get().action == {"action": "reveal"}


def test_a_reply_with_only_quoted_text_plays_nothing(duel, anna):
    pipe(build_reply(anna.email, latest_reply_to(anna), "> reveal\n-- \nAnna"))
    assert Game.objects.get(id=duel.id).version == 0
    assert "We found no move in your reply" in answers().get().rendered().body_text


def test_the_pipe_asks_the_mail_server_to_retry_when_handling_fails(duel, anna, monkeypatch):
    raw = build_reply(anna.email, latest_reply_to(anna), "reveal")

    def broken(*args, **kwargs):
        raise OperationalError("database went away")

    monkeypatch.setattr(handler, "_play", broken)
    with pytest.raises(SystemExit) as exited:
        pipe(raw)
    assert exited.value.code == 75  # EX_TEMPFAIL
    monkeypatch.undo()
    pipe(raw)  # the mail server's retry, same Message-ID: not taken for a copy
    assert Game.objects.get(id=duel.id).version == 1


def test_the_pipe_drops_a_message_whose_handling_fails_for_good(duel, anna, monkeypatch, caplog):
    # A fault no retry mends: retried for days, then bounced to a sender who may be forged.
    def broken(*args, **kwargs):
        raise ValueError("a fault of ours")

    monkeypatch.setattr(handler, "_play", broken)
    pipe(build_reply(anna.email, latest_reply_to(anna), "reveal"))  # exits 0
    assert "could not be handled; dropped" in caplog.text
    assert nothing_happened(duel)


def test_no_reply_to_without_a_reply_address(anna, bert, settings):
    settings.REPLY_ADDRESS = ""
    game = start_game([anna, bert])
    reminder.queue_reminder(game, 0, game.deadline)
    for kind in ("your_turn", "reminder"):
        mail = OutboundEmail.objects.get(to=anna.email, template=kind).rendered()
        assert "Reply-To" not in mail.headers
        assert "reply to this email" not in mail.body_text
        assert "reply to this email" not in mail.body_html


def test_the_token_is_redacted_once_sent_and_never_logged(
    anna, bert, mailoutbox, django_capture_on_commit_callbacks, caplog
):
    caplog.set_level(logging.DEBUG)
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game([anna, bert])
    sent = next(m for m in mailoutbox if m.to == [anna.email] and "Reply-To" in m.extra_headers)
    address = sent.extra_headers["Reply-To"]
    token = address.partition("+")[2].partition("@")[0]
    assert sent.message()["Reply-To"] == address  # the player's email carries it
    assert "reply to this email with your move" in sent.body
    stored = OutboundEmail.objects.get(to=anna.email, template="your_turn")
    assert stored.status == OutboundEmail.Status.SENT
    assert stored.headers["Reply-To"] == "play+[redacted]@in.example.com"
    assert redact_tokens(f"Reply-To: <{address.upper()}>") == (
        "Reply-To: <PLAY+[redacted]@IN.EXAMPLE.COM>"
    )
    with django_capture_on_commit_callbacks(execute=True):
        pipe(build_reply(anna.email, address, "reveal"))
    answer = OutboundEmail.objects.get(template="mail_answer").rendered()
    assert answer.status == OutboundEmail.Status.SENT and token not in str(answer.headers)
    assert answer.headers["Reply-To"] == "play+[redacted]@in.example.com"
    assert Game.objects.get(id=game.id).version == 1
    logged = caplog.text.lower()
    assert token not in logged and "anna@example.com" not in logged
