"""The local mailbox's reply form (/dev/mailbox/reply/): a move played by replying to a
game email under `make run`, through the same door as a mail server's pipe."""

import email
import email.policy
import re

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from games.models import Move
from mailin.dev_views import build_reply
from notifications.dev_views import read_mailbox
from notifications.models import OutboundEmail
from tests.factories import start_game

from .test_local_mailbox import debug_on, mail_files  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db
MAILBOX = "/dev/mailbox/"
REPLY = "/dev/mailbox/reply/"


@pytest.fixture
def replies_on(settings):
    settings.REPLY_ADDRESS = "play@localhost"  # what DEBUG gives `make run` (settings.py)


@pytest.fixture
def started(anna, bert, replies_on, django_capture_on_commit_callbacks):
    """A Piratz game of Anna and Bert whose emails are sent into the mailbox's files."""
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game([anna, bert])
    return game


def _turn_email(directory, player):
    emails = [e for e in read_mailbox(directory) if e.to == player.email and e.mailin_reply_to]
    assert emails, f"no email to {player.email} with a reply address"
    return emails[0]


def _post_reply(client, message_id: str, text: str, capture):
    """Post the form, let its transaction's emails go (the worker, under `make run`), then
    open the mailbox the answer redirects to."""
    with capture(execute=True):
        response = client.post(REPLY, {"message_id": message_id, "text": text})
    assert (response.status_code, response["Location"]) == (302, MAILBOX)
    return client.get(MAILBOX)


def test_a_reply_from_the_mailbox_plays_the_move_through_mail_in(
    debug_on,  # noqa: F811
    mail_files,  # noqa: F811
    started,
    anna,
    bert,
    client,
    caplog,
    django_capture_on_commit_callbacks,
):
    game = started
    player = {0: anna, 1: bert}[game.current_seat]
    page = client.get(MAILBOX).content.decode()
    assert 'action="/dev/mailbox/reply/"' in page and "Send reply" in page
    assert "csrfmiddlewaretoken" in page
    turn = _turn_email(mail_files, player)
    assert f'value="{escape(turn.message_id)}"' in page

    caplog.set_level("INFO", logger="mailin")
    response = _post_reply(client, turn.message_id, "reveal", django_capture_on_commit_callbacks)

    # Played through mail-in's handler (its log line), as the pipe's messages are.
    assert any("Inbound email from" in record.getMessage() for record in caplog.records)
    move = Move.objects.get(game=game, number=1)
    assert (move.seat, move.action) == (game.current_seat, {"action": "reveal"})
    # The answer is an email like any other: queued, sent, and in the mailbox on top.
    answer = OutboundEmail.objects.get(template="mail_answer", to=player.email)
    assert answer.status == "sent"
    newest = read_mailbox(mail_files)[0]
    assert newest.to == player.email and "Move played" in newest.subject
    page = response.content.decode()
    assert "Your reply went to mail-in" in page and 'role="status"' in page
    assert newest.subject in page


def test_the_reply_is_an_rfc_5322_reply_quoting_the_email(
    debug_on,  # noqa: F811
    mail_files,  # noqa: F811
    started,
    anna,
    bert,
):
    player = {0: anna, 1: bert}[started.current_seat]
    turn = _turn_email(mail_files, player)
    raw = build_reply(turn, "reveal\r\n", timezone.now())

    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert message["From"] == player.email
    assert message["To"] == turn.mailin_reply_to and "+" in turn.mailin_reply_to
    assert message["Subject"] == f"Re: {turn.subject}"
    assert message["In-Reply-To"] == turn.message_id
    assert message["References"].split()[-1] == turn.message_id
    assert message["Message-ID"] and message["Date"]
    body = message.get_body().get_content().replace("\r\n", "\n")  # CRLF on the wire
    assert body.startswith("reveal\n\nOn ") and " wrote:\n> " in body
    first_line = turn.body.splitlines()[0]
    assert f"> {first_line}" in body


def test_a_dropped_reply_says_so_and_plays_nothing(
    debug_on,  # noqa: F811
    mail_files,  # noqa: F811
    started,
    anna,
    bert,
    client,
    settings,
    django_capture_on_commit_callbacks,
):
    player = {0: anna, 1: bert}[started.current_seat]
    turn = _turn_email(mail_files, player)
    settings.MAILIN_PER_ADDRESS_PER_HOUR = 1
    _post_reply(client, turn.message_id, "nonsense", django_capture_on_commit_callbacks)  # refused
    response = _post_reply(client, turn.message_id, "reveal", django_capture_on_commit_callbacks)
    assert "dropped the reply" in response.content.decode()
    assert not Move.objects.filter(game=started).exists()


def test_an_unknown_email_sends_nothing(
    debug_on,  # noqa: F811
    mail_files,  # noqa: F811
    started,
    client,
    django_capture_on_commit_callbacks,
):
    before = OutboundEmail.objects.count()
    response = _post_reply(client, "<nope@localhost>", "reveal", django_capture_on_commit_callbacks)
    assert "nothing was sent" in response.content.decode()
    assert OutboundEmail.objects.count() == before
    assert not Move.objects.filter(game=started).exists()


def test_an_email_without_a_reply_address_has_no_form(
    debug_on,  # noqa: F811
    mail_files,  # noqa: F811
    anna,
    bert,
    settings,
    client,
    django_capture_on_commit_callbacks,
):
    settings.REPLY_ADDRESS = ""  # replying off: no Reply-To on game emails
    with django_capture_on_commit_callbacks(execute=True):
        start_game([anna, bert])
    page = client.get(MAILBOX).content.decode()
    assert "No emails yet" not in page and "Piratz" in page
    assert "Send reply" not in page


@pytest.mark.parametrize("address", ["192.168.1.5", "10.0.0.7", "::ffff:192.168.1.5"])
def test_a_client_on_the_network_cannot_reply(
    debug_on,  # noqa: F811
    mail_files,  # noqa: F811
    started,
    anna,
    bert,
    client,
    address,
    django_capture_on_commit_callbacks,
):
    player = {0: anna, 1: bert}[started.current_seat]
    turn = _turn_email(mail_files, player)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            REPLY, {"message_id": turn.message_id, "text": "reveal"}, REMOTE_ADDR=address
        )
    assert response.status_code == 403
    assert "only to a browser on the machine" in response.content.decode()
    assert not Move.objects.filter(game=started).exists()


def test_the_reply_form_needs_debug_and_post_and_csrf(
    debug_on,  # noqa: F811
    mail_files,  # noqa: F811
    started,
    anna,
    bert,
    settings,
    client,
):
    player = {0: anna, 1: bert}[started.current_seat]
    turn = _turn_email(mail_files, player)
    assert client.get(REPLY).status_code == 405
    strict = Client(enforce_csrf_checks=True)
    page = strict.get(MAILBOX).content.decode()
    assert strict.post(REPLY, {"message_id": turn.message_id, "text": "reveal"}).status_code == 403
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    settings.DEBUG = False  # the URLs loaded while DEBUG was on: the view refuses itself
    data = {"message_id": turn.message_id, "text": "reveal", "csrfmiddlewaretoken": token}
    assert strict.post(REPLY, data).status_code == 404
    assert not Move.objects.filter(game=started).exists()
