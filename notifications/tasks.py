"""Celery tasks of the outbox: thin wrappers that take ids; the logic is in outbox.py."""

from dataclasses import asdict

from celery import shared_task

from . import outbox

# One sweep tries at most this many emails, so a backlog is worked off over several
# minutes by several workers instead of one task holding a worker for an hour.
SWEEP_BATCH_SIZE = 500


@shared_task
def send_email(email_id: int) -> str:
    """Send one outbox email if it is still pending and due; safe to run twice."""
    return outbox.send_pending_email(email_id)


@shared_task
def send_due_emails() -> dict:
    """The every-minute sweep: requeue stuck emails and send the due ones (retries, and
    emails whose ``send_email`` task was lost, e.g. because the broker was down)."""
    return asdict(outbox.send_due_emails(limit=SWEEP_BATCH_SIZE))
