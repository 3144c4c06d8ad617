"""Retention: old done emails lose their content, old delivery attempts are deleted."""

from datetime import timedelta

import pytest
from django.conf import settings as django_settings

from notifications import outbox, retention, tasks
from notifications.models import DeliveryAttempt, OutboundEmail
from piratz_site.celery import app

pytestmark = pytest.mark.django_db

Status = OutboundEmail.Status


@pytest.fixture
def days(settings):
    settings.RETENTION_EMAIL_DAYS = 90
    settings.RETENTION_ATTEMPTS_DAYS = 60
    return settings


def content(email: OutboundEmail) -> tuple:
    email.refresh_from_db()
    return (email.body_text, email.body_html, email.headers, email.context)


def test_done_emails_older_than_the_setting_lose_their_content_and_keep_their_row(
    make_email, now, days
):
    old = now - timedelta(days=91)
    sent = make_email(status=Status.SENT, created_at=old, sent_at=old, headers={"X-A": "b"})
    failed = make_email(status=Status.FAILED, created_at=old, attempts=6, last_error="550 gone")
    dropped = make_email(status=Status.DROPPED, created_at=old)
    recent = make_email(status=Status.SENT, created_at=now - timedelta(days=89))
    pending = make_email(status=Status.PENDING, created_at=old)  # not yet sent: kept whole
    sending = make_email(status=Status.SENDING, created_at=old, claimed_at=now)
    unrendered = make_email(
        status=Status.PENDING, created_at=old, body_text="", body_html="", context={"a": 1}
    )

    assert retention.purge_email_contents(now) == 3

    for email in (sent, failed, dropped):
        assert content(email) == ("", "", {}, None)
    sent.refresh_from_db()
    # The record of what went to whom stays.
    assert (sent.to, sent.subject, sent.status, sent.sent_at) == (
        "player@example.com",
        "Your turn in Skull Bay",
        Status.SENT,
        old,
    )
    failed.refresh_from_db()
    assert (failed.attempts, failed.last_error) == (6, "550 gone")
    for email in (recent, pending, sending):
        assert content(email)[0] == "Secret hand: 3 rats.\n"
    assert content(unrendered)[3] == {"a": 1}
    # Idempotent: nothing left to purge.
    assert retention.purge_email_contents(now) == 0


def test_the_purge_works_in_batches_up_to_its_limit(make_email, now, days):
    old = now - timedelta(days=100)
    for _ in range(7):
        make_email(status=Status.SENT, created_at=old)

    assert retention.purge_email_contents(now, batch_size=2, limit=5) == 5
    assert retention.purge_email_contents(now, batch_size=2, limit=5) == 2
    assert retention.emails_to_purge(now).count() == 0


def test_old_delivery_attempts_are_deleted_and_the_emails_counts_stay(make_email, now, days):
    email = make_email(status=Status.SENT, attempts=2, created_at=now - timedelta(days=70))
    DeliveryAttempt.objects.create(
        email=email, at=now - timedelta(days=61), outcome="retrying", error="451"
    )
    kept = DeliveryAttempt.objects.create(email=email, at=now - timedelta(days=59), outcome="sent")

    assert retention.purge_delivery_attempts(now, batch_size=1) == 1
    assert list(DeliveryAttempt.objects.values_list("id", flat=True)) == [kept.id]
    email.refresh_from_db()
    assert email.attempts == 2
    assert retention.purge_delivery_attempts(now) == 0


def test_a_failed_email_whose_content_was_purged_is_not_resent(make_email, now, days):
    old = now - timedelta(days=91)
    purged = make_email(status=Status.FAILED, created_at=old)
    whole = make_email(status=Status.FAILED, created_at=now - timedelta(days=1))
    retention.purge_email_contents(now)

    assert outbox.retry_emails_now([purged.id, whole.id]) == 1
    purged.refresh_from_db()
    assert purged.status == Status.FAILED


def test_the_task_purges_both_and_runs_daily_on_beat(make_email, now, days):
    old = now - timedelta(days=91)
    email = make_email(status=Status.SENT, created_at=old)
    DeliveryAttempt.objects.create(email=email, at=old, outcome="sent")

    assert tasks.purge_old_email_records.delay().get() == {
        "emails_purged": 1,
        "attempts_deleted": 1,
    }
    entry = django_settings.CELERY_BEAT_SCHEDULE["purge-old-email-records"]
    assert entry["schedule"] == 24 * 60 * 60
    assert entry["task"] in app.tasks


def test_a_full_run_sends_the_task_again(make_email, now, days, monkeypatch):
    sent_again = []
    monkeypatch.setattr(retention, "RUN_LIMIT", 2)
    monkeypatch.setattr(
        tasks.purge_old_email_records, "apply_async", lambda **kw: sent_again.append(kw)
    )
    for _ in range(2):
        make_email(status=Status.SENT, created_at=now - timedelta(days=91))

    tasks.purge_old_email_records()

    assert len(sent_again) == 1
