"""Celery tasks of the outbox: thin wrappers that take ids; the logic is in outbox.py.

Every task here sends through one path: the delivery machine's ``attempt`` with the email
transport (``outbox.EMAIL``), reached by ``send_pending_email`` (one id) or the machine's
drain (``drain_outbox``, the sweep).
"""

from collections import Counter
from dataclasses import asdict

from celery import shared_task

from . import outbox, retention

# One sweep tries at most this many emails, so a backlog is worked off over several
# minutes by several workers instead of one task holding a worker for an hour.
SWEEP_BATCH_SIZE = 500


@shared_task
def send_emails(email_ids: list[int]) -> dict:
    """Send those of the outbox emails that are still pending and due, one after the
    other; safe to run twice. Returns how many had each outcome (``SendOutcome``).

    What ``queue_email`` publishes after commit when the cache is not on Redis (with it,
    ``drain_outbox``): one task per call, or one for all the emails of an
    ``outbox.sent_together`` block."""
    outcomes = Counter(outbox.send_pending_email(email_id) for email_id in email_ids)
    return {str(outcome): count for outcome, count in outcomes.items()}


@shared_task
def drain_outbox() -> dict:
    """Send the due emails, a batch at a time; safe to run twice, and concurrently.

    What a commit that queued emails publishes when the cache is on Redis: one for every
    commit before it starts (``outbox.drain_outbox``)."""
    return asdict(outbox.drain_outbox())


@shared_task
def send_email(email_id: int) -> str:
    """Send one outbox email if it is still pending and due; safe to run twice.

    No longer published (``send_emails`` is); kept so that a worker still runs those a
    broker holds from before the change."""
    return outbox.send_pending_email(email_id)


@shared_task
def send_due_emails() -> dict:
    """The every-minute sweep: requeue stuck emails and send the due ones (retries, and
    emails whose ``send_emails`` task was lost, e.g. because the broker was down)."""
    return asdict(outbox.send_due_emails(limit=SWEEP_BATCH_SIZE))


@shared_task(bind=True)
def purge_old_email_records(self) -> dict:
    """Daily: old done emails lose their content, old delivery attempts are deleted
    (``notifications.retention``; ``RETENTION_EMAIL_DAYS``, ``RETENTION_ATTEMPTS_DAYS``).

    Safe to run twice. A run stops after ``retention.RUN_LIMIT`` rows of each; a full one
    sends the task again at once, so a backlog (the first run, a lowered setting) is worked
    off in several short tasks rather than one long one.
    """
    result = {
        "emails_purged": retention.purge_email_contents(),
        "attempts_deleted": retention.purge_delivery_attempts(),
    }
    if max(result.values()) >= retention.RUN_LIMIT:
        self.apply_async(expires=60 * 60)
    return result
