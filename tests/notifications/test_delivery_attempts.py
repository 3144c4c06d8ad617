"""Every send attempt of an outbox email is kept with its outcome: the error history."""

import smtplib
from datetime import timedelta

import pytest

from notifications import outbox
from notifications.models import SENDING_TIMEOUT, DeliveryAttempt, OutboundEmail
from tests.concurrency import at_once

pytestmark = pytest.mark.django_db

Outcome = DeliveryAttempt.Outcome


def history(email: OutboundEmail) -> list[tuple[str, str]]:
    return list(email.deliveries.order_by("at", "id").values_list("outcome", "error"))


def test_a_sent_email_has_one_attempt_without_error(make_email, now):
    email = make_email()

    outbox.send_pending_email(email.id)

    assert history(email) == [(Outcome.SENT, "")]


def test_each_failure_is_kept_with_its_masked_error_then_the_success(
    make_email, mail_server_fails, now, time_machine
):
    email = make_email(to="gone@example.com")
    mail_server_fails(
        smtplib.SMTPRecipientsRefused({"gone@example.com": (451, b"Try again later")}),
        ConnectionRefusedError("Connection refused"),
    )

    outbox.send_pending_email(email.id)
    time_machine.move_to(now + timedelta(minutes=2))
    outbox.send_pending_email(email.id)
    time_machine.move_to(now + timedelta(minutes=10))
    outbox.send_pending_email(email.id)

    (first, first_error), (second, second_error), (third, third_error) = history(email)
    assert (first, second, third) == (Outcome.RETRYING, Outcome.RETRYING, Outcome.SENT)
    assert "Try again later" in first_error and "gone@example.com" not in first_error
    assert "Connection refused" in second_error and third_error == ""
    email.refresh_from_db()
    assert email.attempts == 3 == email.deliveries.count()


def test_a_permanent_failure_is_recorded_as_failed(make_email, mail_server_fails, now):
    email = make_email(to="gone@example.com")
    mail_server_fails(smtplib.SMTPRecipientsRefused({"gone@example.com": (550, b"No such user")}))

    outbox.send_pending_email(email.id)

    [(outcome, error)] = history(email)
    assert outcome == Outcome.FAILED and "No such user" in error


def test_a_stuck_email_is_one_attempt_in_the_history_however_often_the_sweep_runs(make_email, now):
    email = make_email(
        status=OutboundEmail.Status.SENDING, claimed_at=now - SENDING_TIMEOUT - timedelta(1)
    )

    outbox.requeue_stuck_emails(now)
    outbox.requeue_stuck_emails(now)

    assert history(email) == [(Outcome.RETRYING, outbox.STUCK_ERROR)]


def test_a_stuck_email_on_its_last_attempt_is_failed_in_the_history(make_email, now, settings):
    email = make_email(
        status=OutboundEmail.Status.SENDING,
        attempts=settings.EMAIL_MAX_ATTEMPTS - 1,
        claimed_at=now - SENDING_TIMEOUT - timedelta(1),
    )

    assert outbox.requeue_stuck_emails(now) == 1

    assert history(email) == [(Outcome.FAILED, outbox.STUCK_ERROR)]


def test_an_outcome_not_saved_leaves_no_attempt(make_email, now, monkeypatch):
    """The sweep took the claim back meanwhile: the other worker's attempt is the one kept."""
    email = make_email()
    real_build = outbox.build_message

    def slow_build(row):
        OutboundEmail.objects.filter(id=row.id).update(claimed_at=now - timedelta(hours=1))
        return real_build(row)

    monkeypatch.setattr(outbox, "build_message", slow_build)

    outbox.send_pending_email(email.id)

    assert history(email) == []


@pytest.mark.postgres("SQLite serialises writers, so there is no race to lose")
@pytest.mark.django_db(transaction=True)
def test_concurrent_sweeps_record_each_stuck_email_once(make_email, now):
    emails = [
        make_email(
            status=OutboundEmail.Status.SENDING,
            claimed_at=now - SENDING_TIMEOUT - timedelta(seconds=1),
        )
        for _ in range(30)
    ]
    requeued = at_once([lambda: outbox.requeue_stuck_emails(now)] * 4)

    assert sum(requeued) == 30
    for email in emails:
        email.refresh_from_db()
        assert email.attempts == 1
        assert history(email) == [(Outcome.RETRYING, outbox.STUCK_ERROR)]
