"""send_pending_email: claims once, records every outcome, retries transient errors."""

import logging
import smtplib
from datetime import timedelta

import pytest

from notifications.models import OutboundEmail
from notifications.outbox import SendOutcome, is_permanent_error, send_pending_email
from tests.concurrency import at_once

pytestmark = pytest.mark.django_db

Status = OutboundEmail.Status


def test_running_twice_sends_once(make_email, mailoutbox, now):
    email = make_email()

    assert send_pending_email(email.id) == SendOutcome.SENT
    assert send_pending_email(email.id) == SendOutcome.SKIPPED

    assert len(mailoutbox) == 1
    email.refresh_from_db()
    assert (email.status, email.attempts, email.sent_at) == (Status.SENT, 1, now)
    assert email.claimed_at == now


def test_email_claimed_by_another_worker_is_left_to_it(make_email, mailoutbox, now):
    email = make_email(status=Status.SENDING, claimed_at=now)
    assert send_pending_email(email.id) == SendOutcome.SKIPPED
    assert mailoutbox == []


def test_email_waiting_out_its_backoff_is_not_sent_early(make_email, mailoutbox, now):
    email = make_email(send_after=now + timedelta(seconds=1))
    assert send_pending_email(email.id) == SendOutcome.SKIPPED
    assert mailoutbox == []
    email.refresh_from_db()
    assert email.status == Status.PENDING


def test_unknown_id_is_skipped():
    assert send_pending_email(987654) == SendOutcome.SKIPPED


def test_transient_error_retries_with_growing_backoff_then_sends(
    make_email, mail_server_fails, mailoutbox, now, time_machine
):
    email = make_email()
    mail_server_fails(
        smtplib.SMTPServerDisconnected("Connection unexpectedly closed"),
        ConnectionRefusedError(111, "Connection refused"),
    )

    assert send_pending_email(email.id) == SendOutcome.RETRYING
    email.refresh_from_db()
    assert (email.status, email.attempts) == (Status.PENDING, 1)
    assert email.send_after == now + timedelta(minutes=1)
    assert email.last_error == "SMTPServerDisconnected: Connection unexpectedly closed"

    assert send_pending_email(email.id) == SendOutcome.SKIPPED  # still backing off
    time_machine.move_to(now + timedelta(minutes=1), tick=False)
    assert send_pending_email(email.id) == SendOutcome.RETRYING
    email.refresh_from_db()
    assert email.attempts == 2
    assert email.send_after == now + timedelta(minutes=1 + 5)
    assert "Connection refused" in email.last_error
    assert mailoutbox == []

    time_machine.move_to(now + timedelta(minutes=6), tick=False)
    assert send_pending_email(email.id) == SendOutcome.SENT
    email.refresh_from_db()
    assert (email.status, email.attempts, email.last_error) == (Status.SENT, 3, "")
    assert len(mailoutbox) == 1


@pytest.mark.parametrize(
    "error",
    [
        smtplib.SMTPRecipientsRefused({"player@example.com": (550, b"5.1.1 No such user")}),
        smtplib.SMTPDataError(554, b"5.7.1 Message rejected as spam"),
        ValueError("Header values may not contain linefeed or carriage return characters"),
    ],
    ids=["address-refused", "content-refused", "bad-address"],
)
def test_permanent_error_fails_the_email_at_once(make_email, mail_server_fails, error, now):
    email = make_email()
    mail_server_fails(error)

    assert send_pending_email(email.id) == SendOutcome.FAILED
    email.refresh_from_db()
    assert (email.status, email.attempts) == (Status.FAILED, 1)
    assert email.last_error.startswith(type(error).__name__ + ":")


def test_address_with_a_line_break_fails_for_real(make_email, mailoutbox):
    # No fake here: Django's mail API itself refuses the header.
    email = make_email(to="player@example.com\nBcc: victim@example.com")

    assert send_pending_email(email.id) == SendOutcome.FAILED
    email.refresh_from_db()
    assert email.status == Status.FAILED
    assert "linefeed" in email.last_error
    assert mailoutbox == []


def test_last_allowed_attempt_failing_fails_the_email(
    make_email, mail_server_fails, settings, now, time_machine
):
    settings.EMAIL_MAX_ATTEMPTS = 3
    email = make_email()
    mail_server_fails(*(smtplib.SMTPConnectError(421, b"try later") for _ in range(3)))

    outcomes = []
    for _ in range(3):
        outcomes.append(send_pending_email(email.id))
        time_machine.shift(timedelta(hours=1))

    assert outcomes == [SendOutcome.RETRYING, SendOutcome.RETRYING, SendOutcome.FAILED]
    email.refresh_from_db()
    assert (email.status, email.attempts) == (Status.FAILED, 3)
    assert "try later" in email.last_error


def test_failure_is_logged_with_the_id_but_not_the_body(make_email, mail_server_fails, caplog):
    email = make_email()
    mail_server_fails(smtplib.SMTPServerDisconnected("gone"))

    with caplog.at_level(logging.WARNING, logger="notifications.outbox"):
        send_pending_email(email.id)

    logged = caplog.text
    assert f"Email {email.id}:" in logged
    assert "SMTPServerDisconnected: gone" in logged
    assert "Secret hand" not in logged


def test_unexpected_error_is_recorded_not_raised(make_email, mail_server_fails, caplog):
    email = make_email()
    mail_server_fails(KeyError("backend bug"))

    assert send_pending_email(email.id) == SendOutcome.RETRYING
    email.refresh_from_db()
    assert email.last_error == "KeyError: 'backend bug'"
    assert any(record.exc_info for record in caplog.records)  # a bug deserves a traceback


def test_outcome_of_a_claim_the_sweep_took_back_is_not_saved(make_email, monkeypatch, now):
    """A worker slower than the stuck timeout must not overwrite the next worker's outcome."""
    email = make_email()
    from django.core.mail.backends import locmem

    def send_while_the_sweep_requeues(self, messages):
        OutboundEmail.objects.filter(id=email.id).update(status=Status.PENDING, claimed_at=None)
        return len(messages)

    monkeypatch.setattr(locmem.EmailBackend, "send_messages", send_while_the_sweep_requeues)
    send_pending_email(email.id)

    email.refresh_from_db()
    assert (email.status, email.attempts, email.sent_at) == (Status.PENDING, 0, None)


@pytest.mark.parametrize(
    ("error", "permanent"),
    [
        (smtplib.SMTPRecipientsRefused({"a@example.com": (550, b"no such user")}), True),
        (smtplib.SMTPRecipientsRefused({"a@example.com": (450, b"mailbox busy")}), False),
        (smtplib.SMTPDataError(554, b"rejected"), True),
        (smtplib.SMTPDataError(451, b"local error"), False),
        (smtplib.SMTPSenderRefused(553, b"bad sender", "piratz@localhost"), False),
        (smtplib.SMTPAuthenticationError(535, b"bad password"), False),
        (smtplib.SMTPServerDisconnected("gone"), False),
        (TimeoutError("timed out"), False),
        (ValueError("Invalid address"), True),
    ],
)
def test_only_a_refused_address_or_message_is_permanent(error, permanent):
    assert is_permanent_error(error) is permanent


@pytest.mark.postgres("SQLite serialises writers, so there is no race to lose")
@pytest.mark.django_db(transaction=True)
def test_concurrent_workers_never_send_one_email_twice(make_email, mailoutbox):
    emails = [make_email(to=f"player{n}@example.com") for n in range(30)]

    def worker() -> list[SendOutcome]:
        return [send_pending_email(email.id) for email in emails]

    outcomes = [outcome for sent in at_once([worker] * 4) for outcome in sent]

    assert outcomes.count(SendOutcome.SENT) == 30
    assert outcomes.count(SendOutcome.SKIPPED) == 3 * 30
    assert sorted(message.to[0] for message in mailoutbox) == sorted(e.to for e in emails)
