"""Links are credentials: once an email is done, its row keeps none; the admin never shows one."""

import logging
import smtplib
from datetime import timedelta

import pytest
from django.core import signing
from django.urls import reverse

from accounts.login_links import consume_login_link, request_login_link
from games import actions
from notifications.models import OutboundEmail
from notifications.outbox import STUCK_ERROR, SweepResult, send_due_emails, send_pending_email
from tests.db_scan import every_stored_value

pytestmark = pytest.mark.django_db

Status = OutboundEmail.Status
TOKEN = signing.dumps({"g": "0b5e", "u": 3}, salt="test")
LINK = f"https://piratz.example/games/0b5e4a2c-1111-2222-3333-444455556666/enter/{TOKEN}/"
UNSUBSCRIBE = f"<https://piratz.example/unsubscribe/{TOKEN}/>"


@pytest.fixture
def email_with_link(make_email):
    return make_email(
        body_text=f"Your turn: {LINK}\n",
        body_html=f'<p>Your turn: <a href="{LINK}">open the game</a></p>',
        headers={"List-Unsubscribe": UNSUBSCRIBE},
    )


def test_sent_email_goes_out_whole_and_its_row_keeps_no_link(email_with_link, mailoutbox, now):
    assert send_pending_email(email_with_link.id) == "sent"

    message = mailoutbox[0]
    assert LINK in message.body
    assert LINK in message.alternatives[0].content
    assert message.extra_headers["List-Unsubscribe"] == UNSUBSCRIBE
    email_with_link.refresh_from_db()
    assert TOKEN not in every_stored_value()
    assert email_with_link.body_text == f"Your turn: {LINK.replace(TOKEN, '[redacted]')}\n"
    assert email_with_link.headers == {"List-Unsubscribe": UNSUBSCRIBE.replace(TOKEN, "[redacted]")}


def test_refused_email_keeps_no_link_and_no_readable_address(
    email_with_link, mail_server_fails, caplog, now
):
    mail_server_fails(
        smtplib.SMTPRecipientsRefused({"player@example.com": (550, b"5.1.1 No such user")})
    )

    with caplog.at_level(logging.WARNING, logger="notifications.outbox"):
        assert send_pending_email(email_with_link.id) == "failed"

    email_with_link.refresh_from_db()
    assert email_with_link.last_error == (
        "SMTPRecipientsRefused: {'p***@example.com': (550, b'5.1.1 No such user')}"
    )
    assert TOKEN not in every_stored_value()
    assert "p***@example.com" in caplog.text
    assert "player@example.com" not in caplog.text


def test_email_to_be_retried_keeps_its_link_until_it_is_sent(
    email_with_link, mail_server_fails, mailoutbox, now, time_machine
):
    mail_server_fails(ConnectionResetError("reset by peer"))

    assert send_pending_email(email_with_link.id) == "retrying"
    email_with_link.refresh_from_db()
    assert LINK in email_with_link.body_text

    time_machine.shift(timedelta(minutes=1))
    assert send_pending_email(email_with_link.id) == "sent"
    assert LINK in mailoutbox[0].body
    assert TOKEN not in every_stored_value()


def test_email_given_up_after_killing_its_worker_keeps_no_link(make_email, settings, now):
    settings.EMAIL_MAX_ATTEMPTS = 3
    stuck = make_email(
        status=Status.SENDING,
        claimed_at=now - timedelta(hours=1),
        attempts=2,
        body_text=f"Your turn: {LINK}\n",
        headers={"List-Unsubscribe": UNSUBSCRIBE},
    )
    alive = make_email(status=Status.SENDING, claimed_at=now, body_text=f"Also {LINK}\n")

    assert send_due_emails() == SweepResult(requeued=1)

    stuck.refresh_from_db()
    assert (stuck.status, stuck.last_error) == (Status.FAILED, STUCK_ERROR)
    assert TOKEN not in stuck.body_text + str(stuck.headers)
    alive.refresh_from_db()
    assert LINK in alive.body_text  # still being sent: it needs its link


def test_login_link_works_but_is_stored_nowhere(mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        assert request_login_link("anna@example.com")

    token = mailoutbox[0].body.split("/accounts/login/")[1].split("/")[0]
    assert TOKEN not in token and ":" in token
    assert token not in every_stored_value()
    assert consume_login_link(token).user.email == "anna@example.com"


def test_invitation_link_is_stored_nowhere_after_sending(
    anna, bert, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_create_game(anna, [anna.email, bert.email])

    token = mailoutbox[0].body.split("/invitations/")[1].split("/")[0]
    _game, seat = actions.read_invitation_token(token)  # a working link went out
    assert seat.user == bert
    assert token not in every_stored_value()


def test_admin_never_shows_a_link_not_even_of_a_pending_email(admin_client, email_with_link):
    url = reverse("admin:notifications_outboundemail_change", args=[email_with_link.id])

    response = admin_client.get(url)

    assert response.status_code == 200
    page = response.content.decode()
    assert TOKEN not in page
    assert "/enter/[redacted]/" in page  # the moderator still sees what kind of link it was
    assert "/unsubscribe/[redacted]/" in page
    email_with_link.refresh_from_db()
    assert LINK in email_with_link.body_text  # unsent: the row keeps what it must send


def test_admin_list_never_shows_a_link(admin_client, make_email):
    make_email(subject=f"Your code {TOKEN}", last_error=f"refused {TOKEN}")

    response = admin_client.get(reverse("admin:notifications_outboundemail_changelist"))

    assert response.status_code == 200
    assert TOKEN not in response.content.decode()
