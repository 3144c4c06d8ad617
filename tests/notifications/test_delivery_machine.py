"""The one delivery machine (``notifications.delivery``) with a fake transport: claim,
attempt, record, retry with backoff, requeue stuck claims, stop at the soft time limit.

The rows are outbox emails (any ``DeliveryRow`` would do); the fake transport sends
nothing and runs no hooks, so what is checked is the machine's alone. The email outbox's
own use of it (``send_pending_email``, its sweep) is in the other tests of this folder.
"""

import logging
from datetime import timedelta

import pytest
from celery.exceptions import SoftTimeLimitExceeded

from notifications import delivery, outbox
from notifications.delivery import Failure, NotAttempted, SendOutcome, Transport, retry_delay
from notifications.models import SENDING_TIMEOUT, DeliveryAttempt, OutboundEmail

pytestmark = pytest.mark.django_db

Status = OutboundEmail.Status


class Permanent(Exception):
    """What the fake transport's endpoint answers when it will never take the row."""


class FakeTransport(Transport):
    """Delivers by appending the row's id to ``sent``; ``answers`` are raised first, in
    order (``Permanent`` is permanent, anything else transient)."""

    model = OutboundEmail
    logger = logging.getLogger("tests.fake_transport")
    stuck_error = "lost"
    interrupted_error = "interrupted"

    def __init__(self, *answers: BaseException, max_attempts: int = 3):
        self.answers = list(answers)
        self.sent: list[int] = []
        self._max_attempts = max_attempts

    def max_attempts(self) -> int:
        return self._max_attempts

    def deliver(self, row) -> None:
        if self.answers:
            raise self.answers.pop(0)
        self.sent.append(row.pk)

    def failure_for(self, exc: Exception) -> Failure:
        return Failure(str(exc), permanent=isinstance(exc, Permanent))


def reloaded(email: OutboundEmail) -> OutboundEmail:
    email.refresh_from_db()
    return email


def test_a_row_is_claimed_once(make_email, now):
    email = make_email(send_after=now)

    assert OutboundEmail.objects.claim(email.id, now)
    assert not OutboundEmail.objects.claim(email.id, now)  # the second caller loses
    assert reloaded(email).status == Status.SENDING


def test_a_row_not_yet_due_is_not_claimed(make_email, now):
    email = make_email(send_after=now + timedelta(seconds=1))

    assert delivery.send_one(FakeTransport(), email.id) == SendOutcome.SKIPPED
    assert reloaded(email).status == Status.PENDING


def test_delivered_marks_the_row_sent(make_email, now):
    email = make_email(send_after=now)
    transport = FakeTransport()

    assert delivery.send_one(transport, email.id) == SendOutcome.SENT
    assert delivery.send_one(transport, email.id) == SendOutcome.SKIPPED
    email = reloaded(email)
    assert (email.status, email.attempts, email.sent_at, email.last_error) == (
        Status.SENT,
        1,
        now,
        "",
    )
    assert transport.sent == [email.id]


def test_a_transient_failure_retries_at_the_backoff_time(make_email, now):
    email = make_email(send_after=now, attempts=1)

    outcome = delivery.send_one(FakeTransport(ConnectionError("try later")), email.id)

    assert outcome == SendOutcome.RETRYING
    email = reloaded(email)
    assert (email.status, email.attempts, email.last_error) == (Status.PENDING, 2, "try later")
    assert email.send_after == now + retry_delay(2)


def test_a_permanent_failure_fails_the_row_with_its_error(make_email, now):
    email = make_email(send_after=now)

    outcome = delivery.send_one(FakeTransport(Permanent("no such address")), email.id)

    assert outcome == SendOutcome.FAILED
    email = reloaded(email)
    assert (email.status, email.attempts, email.last_error) == (
        Status.FAILED,
        1,
        "no such address",
    )


def test_the_last_allowed_attempt_fails_the_row(make_email, now):
    email = make_email(send_after=now, attempts=2)

    outcome = delivery.send_one(FakeTransport(ConnectionError("down"), max_attempts=3), email.id)

    assert outcome == SendOutcome.FAILED
    assert (reloaded(email).status, reloaded(email).attempts) == (Status.FAILED, 3)


def test_a_row_not_to_be_tried_fails_without_an_attempt(make_email, now):
    email = make_email(send_after=now)

    outcome = delivery.send_one(FakeTransport(NotAttempted("switched off")), email.id)

    assert outcome == SendOutcome.FAILED
    email = reloaded(email)
    assert (email.status, email.attempts, email.last_error) == (Status.FAILED, 0, "switched off")


@pytest.mark.parametrize(
    ("claimed_ago", "requeued"),
    [(SENDING_TIMEOUT, False), (SENDING_TIMEOUT + timedelta(seconds=1), True)],
)
def test_a_stuck_claim_is_requeued_only_after_the_threshold(make_email, now, claimed_ago, requeued):
    email = make_email(status=Status.SENDING, claimed_at=now - claimed_ago, attempts=1)

    assert delivery.requeue_stuck(FakeTransport(), now) == int(requeued)

    email = reloaded(email)
    if requeued:  # the lost attempt counts, and the row is due again at once
        assert (email.status, email.attempts, email.last_error) == (Status.PENDING, 2, "lost")
        assert email.send_after == now
    else:
        assert (email.status, email.attempts) == (Status.SENDING, 1)


def test_a_stuck_claim_on_its_last_attempt_fails(make_email, now):
    email = make_email(
        status=Status.SENDING, claimed_at=now - SENDING_TIMEOUT - timedelta(1), attempts=2
    )

    assert delivery.requeue_stuck(FakeTransport(max_attempts=3), now) == 1
    assert (reloaded(email).status, reloaded(email).attempts) == (Status.FAILED, 3)


def test_a_soft_time_limit_during_an_attempt_is_recorded_and_reraised(make_email, now):
    email = make_email(send_after=now)

    with pytest.raises(SoftTimeLimitExceeded):
        delivery.send_one(FakeTransport(SoftTimeLimitExceeded()), email.id)

    email = reloaded(email)  # not left "sending" until the stuck sweep
    assert (email.status, email.attempts, email.last_error) == (
        Status.PENDING,
        1,
        "interrupted",
    )


def test_a_drain_stopped_at_the_soft_time_limit_releases_the_claims_it_did_not_try(make_email, now):
    first, second, third = (make_email(send_after=now) for _ in range(3))

    with pytest.raises(SoftTimeLimitExceeded):
        delivery.drain(FakeTransport(SoftTimeLimitExceeded()), now, limit=None, chunk=3)

    assert reloaded(first).attempts == 1  # the interrupted one counts
    for email in (second, third):  # claimed with it, never tried: due again, no attempt
        assert (reloaded(email).status, reloaded(email).attempts) == (Status.PENDING, 0)


def test_a_drain_tries_at_most_its_limit_oldest_due_first(make_email, now):
    emails = [make_email(send_after=now - timedelta(minutes=m)) for m in (1, 3, 2)]
    transport = FakeTransport()

    outcomes = delivery.drain(transport, now, limit=2, chunk=10)

    assert outcomes == {SendOutcome.SENT: 2}
    assert transport.sent == [emails[1].id, emails[2].id]


def test_an_email_send_stopped_at_the_soft_time_limit_ends_the_task(
    make_email, mail_server_fails, now
):
    """The email outbox once recorded the time limit as an ordinary transient error and
    went on sending, until the hard limit killed the worker mid-send."""
    email = make_email(send_after=now)
    mail_server_fails(SoftTimeLimitExceeded())

    with pytest.raises(SoftTimeLimitExceeded):
        outbox.send_pending_email(email.id)

    email = reloaded(email)
    assert (email.status, email.attempts, email.last_error) == (
        Status.PENDING,
        1,
        outbox.INTERRUPTED_ERROR,
    )
    assert [attempt.error for attempt in DeliveryAttempt.objects.filter(email=email)] == [
        outbox.INTERRUPTED_ERROR
    ]
