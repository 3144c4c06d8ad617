"""Retention of the push outbox (docs/security.md "What is kept, and for how long").

``purge_push_deliveries`` deletes the push messages that are done (sent, or failed for
good) and older than ``RETENTION_PUSH_DAYS``: their payloads are public game news, but
nobody needs them once shown, and the table grows with every turn sent by push. Pending
and sending ones stay, whatever their age. Idempotent and batched as
``webhooks.retention``; the subscriptions themselves stay.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from notifications.retention import BATCH_SIZE, RUN_LIMIT, delete_in_batches

from .models import PushDelivery

DONE = (PushDelivery.Status.SENT, PushDelivery.Status.FAILED)


def purge_push_deliveries(
    now: datetime | None = None, *, batch_size: int = BATCH_SIZE, limit: int | None = None
) -> int:
    """Delete done push deliveries older than ``RETENTION_PUSH_DAYS``; returns how many (batched as
    ``notifications.retention.delete_in_batches``)."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.RETENTION_PUSH_DAYS)
    old = PushDelivery.objects.filter(status__in=DONE, created_at__lt=cutoff)
    return delete_in_batches(
        old, batch_size=batch_size, limit=RUN_LIMIT if limit is None else limit
    )
