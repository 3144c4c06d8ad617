"""Celery tasks of the webhook outbox: thin wrappers taking ids; the logic is in delivery.py.

They run on the ``webhooks`` queue (``CELERY_TASK_ROUTES``), served by workers of their
own, under every task's time limits (``CELERY_TASK_SOFT_TIME_LIMIT``/``_TIME_LIMIT``).
"""

from dataclasses import asdict

from celery import shared_task

from . import delivery, retention

# One sweep posts at most this many, so a backlog is shared by several workers and runs.
SWEEP_BATCH_SIZE = 200


@shared_task
def send_webhook_delivery(delivery_id: int) -> str:
    """Post one delivery if it is still pending and due; safe to run twice."""
    return delivery.send_pending_delivery(delivery_id)


@shared_task
def send_due_webhook_deliveries() -> dict:
    """The every-minute sweep: retries, stuck claims, and posts whose task was lost; it
    starts no post that could outlast its soft time limit (the next sweep goes on)."""
    result = delivery.send_due_deliveries(
        limit=SWEEP_BATCH_SIZE, budget_seconds=delivery.sweep_budget_seconds()
    )
    return asdict(result)


@shared_task(bind=True)
def purge_old_webhook_deliveries(self) -> int:
    """Daily: delete done deliveries older than ``RETENTION_WEBHOOK_DAYS``
    (``webhooks.retention``). Safe to run twice; a full run sends the task again at once."""
    deleted = retention.purge_webhook_deliveries()
    if deleted >= retention.RUN_LIMIT:
        self.apply_async(expires=60 * 60)
    return deleted
