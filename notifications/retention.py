"""Retention: what the outbox forgets, and when (docs/security.md "What is kept, and for how long").

Two sweeps, run daily by beat (``notifications.tasks.purge_old_email_records``):

- ``purge_email_contents``: an email that is done (sent, failed for good or dropped) and
  older than ``RETENTION_EMAIL_DAYS`` loses its content (bodies, headers, context); the
  row stays (to, subject, template, topic, status, attempts, dates), the record of what
  was sent to whom.
- ``purge_delivery_attempts``: attempt rows (``DeliveryAttempt``) older than
  ``RETENTION_ATTEMPTS_DAYS`` are deleted; the email's ``attempts`` and ``last_error`` stay.

Both are idempotent (a purged row no longer matches) and batched: each statement touches
at most ``batch_size`` rows, so no sweep holds locks on a large part of the outbox, and a
run stops after ``limit`` rows (default ``RUN_LIMIT``; the task then sends itself again).
Pending and sending emails are never touched, whatever their age: their content is what
will be sent.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from .models import DeliveryAttempt, EmailStatus, OutboundEmail

BATCH_SIZE = 500
# Rows of each kind one run purges at most (the task sends itself again after a full run).
RUN_LIMIT = 20 * BATCH_SIZE
DONE = (EmailStatus.SENT, EmailStatus.FAILED, EmailStatus.DROPPED)
# An email whose content is purged (or never had any to keep): nothing left to send.
WITHOUT_CONTENT = Q(body_text="", body_html="", headers={}, context__isnull=True)


def emails_to_purge(now: datetime) -> QuerySet[OutboundEmail]:
    """Done emails older than ``RETENTION_EMAIL_DAYS`` that still hold content."""
    cutoff = now - timedelta(days=settings.RETENTION_EMAIL_DAYS)
    return OutboundEmail.objects.filter(status__in=DONE, created_at__lt=cutoff).exclude(
        WITHOUT_CONTENT
    )


def purge_email_contents(
    now: datetime | None = None, *, batch_size: int = BATCH_SIZE, limit: int | None = None
) -> int:
    """Clear the bodies, headers and context of old done emails; returns how many.

    The guarded UPDATE repeats the conditions, so an email resent by a moderator between
    the read and the write (pending again) keeps its content.
    """
    now = now or timezone.now()
    limit = RUN_LIMIT if limit is None else limit
    purged = 0
    while purged < limit:
        ids = list(
            emails_to_purge(now).values_list("id", flat=True)[: min(batch_size, limit - purged)]
        )
        if not ids:
            break
        purged += (
            emails_to_purge(now)
            .filter(id__in=ids)
            .update(body_text="", body_html="", headers={}, context=None)
        )
    return purged


def delete_in_batches(
    old: QuerySet, *, batch_size: int = BATCH_SIZE, limit: int | None = None
) -> int:
    """Delete the rows of ``old`` at most ``batch_size`` at a time and ``limit`` in all
    (default ``RUN_LIMIT``); returns how many. Each DELETE repeats ``old``'s conditions, so
    a row that stopped matching between the read and the write (claimed, requeued) stays.
    The one loop of every outbox's purge (attempts here; webhook and push deliveries)."""
    limit = RUN_LIMIT if limit is None else limit
    deleted = 0
    while deleted < limit:
        ids = list(old.values_list("id", flat=True)[: min(batch_size, limit - deleted)])
        if not ids:
            break
        count, _ = old.filter(id__in=ids).delete()
        deleted += count
    return deleted


def purge_delivery_attempts(
    now: datetime | None = None, *, batch_size: int = BATCH_SIZE, limit: int | None = None
) -> int:
    """Delete delivery attempt rows older than ``RETENTION_ATTEMPTS_DAYS``; returns how many."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.RETENTION_ATTEMPTS_DAYS)
    old = DeliveryAttempt.objects.filter(at__lt=cutoff)
    return delete_in_batches(old, batch_size=batch_size, limit=limit)
