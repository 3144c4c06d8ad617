"""The outbox row's state rules, on unsaved instances: no database."""

from datetime import timedelta

import pytest

from notifications.models import OutboundEmail, retry_delay

from .conftest import NOON

Status = OutboundEmail.Status


def test_retry_delays_grow_fivefold_from_a_minute_up_to_the_cap():
    delays = [retry_delay(attempts) for attempts in range(1, 8)]
    assert delays == [timedelta(minutes=m) for m in (1, 5, 25, 125, 360, 360, 360)]


def test_retry_delay_of_a_huge_attempt_count_stays_at_the_cap():
    assert retry_delay(500) == timedelta(hours=6)


def test_retry_delay_refuses_attempt_zero():
    with pytest.raises(ValueError, match="count from 1"):
        retry_delay(0)


def test_transient_failure_makes_the_email_pending_again_after_a_backoff():
    email = OutboundEmail(status=Status.SENDING, attempts=1, send_after=NOON)
    email.record_failure("SMTPServerDisconnected: gone", NOON, permanent=False, max_attempts=6)
    assert (email.status, email.attempts) == (Status.PENDING, 2)
    assert email.send_after == NOON + timedelta(minutes=5)
    assert email.last_error == "SMTPServerDisconnected: gone"


def test_last_allowed_attempt_failing_marks_the_email_failed():
    email = OutboundEmail(status=Status.SENDING, attempts=5, send_after=NOON)
    email.record_failure("timeout", NOON, permanent=False, max_attempts=6)
    assert (email.status, email.attempts) == (Status.FAILED, 6)
    assert email.send_after == NOON  # no retry is scheduled


def test_permanent_failure_marks_the_email_failed_at_once():
    email = OutboundEmail(status=Status.SENDING, attempts=0, send_after=NOON)
    email.record_failure("550 no such user", NOON, permanent=True, max_attempts=6)
    assert (email.status, email.attempts) == (Status.FAILED, 1)


def test_a_runaway_error_message_is_cut():
    email = OutboundEmail(status=Status.SENDING)
    email.record_failure("x" * 10_000, NOON, permanent=True, max_attempts=6)
    assert len(email.last_error) == 2000


def test_sent_email_forgets_the_previous_error():
    email = OutboundEmail(status=Status.SENDING, attempts=2, last_error="timeout")
    email.record_sent(NOON)
    assert (email.status, email.attempts, email.sent_at) == (Status.SENT, 3, NOON)
    assert email.last_error == ""


@pytest.mark.parametrize(
    ("status", "claimed_minutes_ago", "stuck"),
    [
        (Status.SENDING, 11, True),
        (Status.SENDING, 10, False),  # exactly the timeout: give the worker the benefit
        (Status.SENDING, 1, False),
        (Status.PENDING, 60, False),
    ],
)
def test_email_is_stuck_only_when_sending_longer_than_ten_minutes(
    status, claimed_minutes_ago, stuck
):
    email = OutboundEmail(status=status, claimed_at=NOON - timedelta(minutes=claimed_minutes_ago))
    assert email.is_stuck(NOON) is stuck


def test_email_is_due_when_pending_and_its_time_has_come():
    assert OutboundEmail(status=Status.PENDING, send_after=NOON).is_due(NOON)
    assert not OutboundEmail(status=Status.PENDING, send_after=NOON).is_due(
        NOON - timedelta(seconds=1)
    )
    assert not OutboundEmail(status=Status.FAILED, send_after=NOON).is_due(NOON)
