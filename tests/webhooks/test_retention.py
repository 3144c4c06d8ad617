"""Retention: done webhook deliveries older than RETENTION_WEBHOOK_DAYS are deleted."""

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from piratz_site.celery import app
from webhooks import retention, tasks
from webhooks.models import Webhook, WebhookDelivery

from .conftest import add_webhook

pytestmark = pytest.mark.django_db

Status = WebhookDelivery.Status


def delivery(webhook, status, age_days: float) -> WebhookDelivery:
    created = timezone.now() - timedelta(days=age_days)
    return WebhookDelivery.objects.create(
        webhook=webhook, event="move_applied", body={"v": 1}, status=status, created_at=created
    )


def test_old_done_deliveries_are_deleted_in_batches_and_the_rest_kept(
    toy_game, anna, receiver, settings
):
    settings.RETENTION_WEBHOOK_DAYS = 30
    add_webhook(toy_game, anna, "json", receiver.url())
    webhook = Webhook.objects.get(game=toy_game)
    gone = [delivery(webhook, status, 31) for status in (Status.SENT, Status.FAILED, Status.SENT)]
    kept = [
        delivery(webhook, Status.SENT, 29),
        delivery(webhook, Status.PENDING, 31),  # still to be posted
        delivery(webhook, Status.SENDING, 31),
    ]

    assert retention.purge_webhook_deliveries(batch_size=2, limit=2) == 2
    assert retention.purge_webhook_deliveries(batch_size=2) == 1
    assert retention.purge_webhook_deliveries() == 0  # idempotent

    remaining = set(WebhookDelivery.objects.values_list("id", flat=True))
    assert remaining == {row.id for row in kept}
    assert not remaining & {row.id for row in gone}
    assert Webhook.objects.filter(id=webhook.id).exists()


def test_the_task_runs_daily_on_beat_and_again_after_a_full_run(
    toy_game, anna, receiver, monkeypatch
):
    add_webhook(toy_game, anna, "json", receiver.url())
    webhook = Webhook.objects.get(game=toy_game)
    for _ in range(2):
        delivery(webhook, Status.SENT, 40)
    sent_again = []
    monkeypatch.setattr(retention, "RUN_LIMIT", 2)
    monkeypatch.setattr(
        tasks.purge_old_webhook_deliveries, "apply_async", lambda **kw: sent_again.append(kw)
    )

    assert tasks.purge_old_webhook_deliveries() == 2
    assert len(sent_again) == 1
    entry = django_settings.CELERY_BEAT_SCHEDULE["purge-old-webhook-deliveries"]
    assert entry["schedule"] == 24 * 60 * 60
    assert entry["task"] in app.tasks
