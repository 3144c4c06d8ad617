"""The outbox's two conditions, written once on the queryset and used by the claim and the sweep."""

from datetime import timedelta

import pytest

from notifications.models import OutboundEmail

pytestmark = pytest.mark.django_db

Status = OutboundEmail.Status


@pytest.mark.parametrize(
    ("status", "claimed_minutes_ago", "stuck"),
    [
        (Status.SENDING, 11, True),
        (Status.SENDING, 10, False),  # exactly the timeout: give the worker the benefit
        (Status.SENDING, 1, False),
        (Status.PENDING, 60, False),
        (Status.SENT, 60, False),
    ],
)
def test_email_is_stuck_only_when_sending_longer_than_ten_minutes(
    make_email, now, status, claimed_minutes_ago, stuck
):
    email = make_email(status=status, claimed_at=now - timedelta(minutes=claimed_minutes_ago))

    assert list(OutboundEmail.objects.stuck(now)) == ([email] if stuck else [])


def test_email_is_due_when_pending_and_its_time_has_come(make_email, now):
    due = make_email(send_after=now)
    make_email(send_after=now + timedelta(seconds=1))
    make_email(status=Status.FAILED, send_after=now - timedelta(hours=1))
    make_email(status=Status.SENDING, send_after=now - timedelta(hours=1), claimed_at=now)

    assert list(OutboundEmail.objects.due(now)) == [due]
