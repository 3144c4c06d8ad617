"""Celery tasks of the push outbox: thin wrappers taking ids; the logic is in delivery.py.

They run on the queue of outbound posts (``CELERY_TASK_ROUTES``: ``WEBHOOKS_QUEUE``), so
a slow push service holds only those workers, never email, sweeps or bots.
"""

from dataclasses import asdict

from celery import shared_task

from . import delivery, retention

# One sweep sends at most this many, so a backlog is shared by several workers and runs.
SWEEP_BATCH_SIZE = 200


@shared_task
def send_push_delivery(delivery_id: int) -> str:
    """Send one push message if it is still pending and due; safe to run twice."""
    return delivery.send_pending_delivery(delivery_id)


@shared_task
def send_due_push_deliveries() -> dict:
    """The every-minute sweep: retries, held messages now due, stuck claims, lost tasks."""
    return asdict(delivery.send_due_deliveries(limit=SWEEP_BATCH_SIZE))


@shared_task(bind=True)
def purge_old_push_deliveries(self) -> int:
    """Daily: delete done push deliveries older than ``RETENTION_PUSH_DAYS``
    (``push.retention``). Safe to run twice; a full run sends the task again at once."""
    deleted = retention.purge_push_deliveries()
    if deleted >= retention.RUN_LIMIT:
        self.apply_async(expires=60 * 60)
    return deleted
