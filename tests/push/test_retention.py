"""Retention: done push deliveries older than RETENTION_PUSH_DAYS are deleted."""

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from piratz_site.celery import app
from push import retention, tasks
from push.models import PushDelivery

pytestmark = pytest.mark.django_db

Status = PushDelivery.Status


def delivery(user, status, age_days: float) -> PushDelivery:
    created = timezone.now() - timedelta(days=age_days)
    return PushDelivery.objects.create(
        user=user, kind="your_turn", payload={"title": "t"}, status=status, created_at=created
    )


def test_old_done_push_deliveries_are_deleted_in_batches_and_the_rest_kept(anna, settings):
    settings.RETENTION_PUSH_DAYS = 30
    gone = [delivery(anna, status, 31) for status in (Status.SENT, Status.FAILED, Status.SENT)]
    kept = [
        delivery(anna, Status.SENT, 29),
        delivery(anna, Status.PENDING, 31),  # still to be sent
        delivery(anna, Status.SENDING, 31),
    ]

    assert retention.purge_push_deliveries(batch_size=2, limit=2) == 2
    assert retention.purge_push_deliveries(batch_size=2) == 1
    assert retention.purge_push_deliveries() == 0  # idempotent

    remaining = set(PushDelivery.objects.values_list("id", flat=True))
    assert remaining == {row.id for row in kept}
    assert not remaining & {row.id for row in gone}


def test_the_push_purge_runs_daily_on_beat_and_again_after_a_full_run(anna, monkeypatch):
    for _ in range(2):
        delivery(anna, Status.SENT, 40)
    sent_again = []
    monkeypatch.setattr(retention, "RUN_LIMIT", 2)
    monkeypatch.setattr(
        tasks.purge_old_push_deliveries, "apply_async", lambda **kw: sent_again.append(kw)
    )

    assert tasks.purge_old_push_deliveries() == 2
    assert len(sent_again) == 1
    entry = django_settings.CELERY_BEAT_SCHEDULE["purge-old-push-deliveries"]
    assert entry["schedule"] == 24 * 60 * 60
    assert entry["task"] in app.tasks
