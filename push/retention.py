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

from .models import PushDelivery

BATCH_SIZE = 500
# Deliveries one run deletes at most (the task sends itself again after a full run).
RUN_LIMIT = 20 * BATCH_SIZE
DONE = (PushDelivery.Status.SENT, PushDelivery.Status.FAILED)


def purge_push_deliveries(
    now: datetime | None = None, *, batch_size: int = BATCH_SIZE, limit: int | None = None
) -> int:
    """Delete done push deliveries older than ``RETENTION_PUSH_DAYS``; returns how many.

    The DELETE repeats the conditions, so a delivery claimed or requeued between the read
    and the write is kept.
    """
    now = now or timezone.now()
    limit = RUN_LIMIT if limit is None else limit
    cutoff = now - timedelta(days=settings.RETENTION_PUSH_DAYS)
    old = PushDelivery.objects.filter(status__in=DONE, created_at__lt=cutoff)
    deleted = 0
    while deleted < limit:
        ids = list(old.values_list("id", flat=True)[: min(batch_size, limit - deleted)])
        if not ids:
            break
        count, _ = old.filter(id__in=ids).delete()
        deleted += count
    return deleted
