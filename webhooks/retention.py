"""Retention of the webhook outbox (docs/security.md "What is kept, and for how long").

``purge_webhook_deliveries`` deletes the deliveries that are done (sent, or failed for
good) and older than ``RETENTION_WEBHOOK_DAYS``: their bodies are public information, but
nobody needs them once posted, and the table grows with every move of a game with
webhooks. Pending and sending ones stay, whatever their age. Idempotent and batched as
``notifications.retention``; the webhook's own row (URL, failures, disabling) stays.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from notifications.retention import BATCH_SIZE, RUN_LIMIT, delete_in_batches

from .models import WebhookDelivery

DONE = (WebhookDelivery.Status.SENT, WebhookDelivery.Status.FAILED)


def purge_webhook_deliveries(
    now: datetime | None = None, *, batch_size: int = BATCH_SIZE, limit: int | None = None
) -> int:
    """Delete done deliveries older than ``RETENTION_WEBHOOK_DAYS``; returns how many (batched as
    ``notifications.retention.delete_in_batches``)."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.RETENTION_WEBHOOK_DAYS)
    old = WebhookDelivery.objects.filter(status__in=DONE, created_at__lt=cutoff)
    return delete_in_batches(
        old, batch_size=batch_size, limit=RUN_LIMIT if limit is None else limit
    )
