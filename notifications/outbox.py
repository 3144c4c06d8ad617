"""Queue emails in the outbox and send them; other apps call only ``queue_email``. A
moderator's resend (``do_resend_emails``, from the outbox's admin) is here too, audited."""

import logging
import smtplib
from collections.abc import Iterable
from contextlib import contextmanager, suppress
from datetime import datetime

from asgiref.local import Local
from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import transaction
from django.utils import timezone

import audit.log
from audit.models import AuditAction
from core import sql
from core.cache_outage import CacheUnavailable, redis_or_unavailable
from core.tasks import task_named

from . import delivery, retention, send_checks
from .delivery import Failure, SendOutcome, SweepResult, Transport
from .mime import OutgoingEmail
from .models import DeliveryAttempt, OutboundEmail
from .rendering import (  # render_email: also the outbox's to callers (tests, previews)
    Composed,
    NotJsonSafe,
    check_templates,
    context_to_json,
    render_email,
)
from .send_checks import SendCheck

logger = logging.getLogger(__name__)

Status = OutboundEmail.Status
STUCK_ERROR = "The worker stopped while sending; the email may or may not have gone out."
INTERRUPTED_ERROR = "Stopped at the task's time limit; the email may or may not have gone out."
# SendOutcome and SweepResult (imported above) are the delivery machine's; this module
# answers with them too, and its callers import them from here.


def queue_email(
    to: str,
    template: str,
    context: dict | Composed,
    *,
    topic: str = "",
    send_after: datetime | None = None,
    headers: dict[str, str] | None = None,
    language: str | None = None,
    send_check: SendCheck | None = None,
) -> OutboundEmail:
    """Store the email ``templates/emails/<template>/`` makes for ``to``; send after commit.

    The three templates are ``subject.txt`` (whitespace collapsed to one line),
    ``body.txt`` (rendered without HTML escaping) and ``body.html`` (should extend
    ``emails/base.html``); they see ``context`` plus ``site_url``. The row is written in the
    caller's transaction and sending is scheduled with ``on_commit``, so a rolled-back
    change sends nothing. ``topic`` is free text to find related emails, e.g.
    ``"game:<uuid>"``. ``send_after`` (aware) holds the email back until then, e.g. to the
    end of the recipient's quiet hours; the every-minute sweep sends it when due.
    ``headers`` are extra message headers (e.g. ``List-Unsubscribe``), stored on the row
    and added by ``build_message``. ``language`` is the recipient's (``accounts.languages.
    language_of``): the email is rendered in it, whatever language the request that caused
    it speaks; None means ``settings.LANGUAGE_CODE``. Strings the caller put in ``context``
    must already be in that language (compose them under ``translation.override``).
    ``send_check`` is asked when the email is due, before it is sent: it may hold it
    longer or drop it (``notifications.send_checks``; ``ValueError`` here for one that is
    not registered).
    A missing template raises ``TemplateDoesNotExist`` here, at the caller; an unusable
    address is only found when sending and marks the email failed.

    Rendering waits for the worker (the row keeps ``context`` as JSON, see
    ``notifications.rendering``) unless the context holds something JSON would not give
    back exactly; then it is rendered here. Either way, its readers (the worker, the admin,
    tests) take the content from ``rendered()``. A ``Composed`` context is built when the
    email is rendered, by its composer, in ``language``; its arguments must keep in JSON
    (``NotJsonSafe`` here otherwise).
    """
    try:
        stored_context = context_to_json(context, language)
    except NotJsonSafe:
        if isinstance(context, Composed):
            raise
        stored_context = None
    if stored_context is None:
        assert not isinstance(context, Composed)  # a Composed context JSON refused raised
        subject, body_text, body_html = render_email(template, context, language=language)
    else:
        check_templates(template)
        subject = body_text = body_html = ""  # rendered by the worker sending it
    stored_check = None if send_check is None else send_checks.to_json(send_check)
    now = timezone.now()
    email = OutboundEmail(
        to=to,
        subject=subject,
        body_text=body_text,
        body_html=body_html,
        context=stored_context,
        language=language or "",
        template=template,
        topic=topic,
        send_after=now if send_after is None else send_after,
        headers=dict(headers or {}),
        send_check=stored_check,
    )
    # In SQL written out (core.sql): a turn's email is one of a move's writes, and the
    # ORM compiled its INSERT afresh each time (decision 0009).
    sql.insert(email)
    if email.send_after <= now:
        # A held-back email is not scheduled now: its task would only find it not yet due.
        _schedule_send([email.id])
    return email


def _schedule_send(email_ids: Iterable[int]) -> None:
    if current_app.conf.task_always_eager and not settings.OUTBOX_EAGER_SEND_ON_COMMIT:
        # An eager task runs in this process: inside the request, which would then wait on
        # the SMTP server (one that accepts and never answers makes it time out, with the
        # change already committed). The every-minute sweep sends these emails instead.
        return
    batch = getattr(_local, "batch", None)
    if batch is not None:  # sent_together: published when the block ends
        batch.extend(email_ids)
        return
    email_ids = list(email_ids)
    # robust: the rows are already committed; if the broker (or the cache) is down, the
    # caller's request must not fail for it; the every-minute sweep sends the emails instead.
    transaction.on_commit(lambda: _wake_sender(email_ids), robust=True)


# Set while a drain_outbox task is on its way and has not yet looked for due emails (so it
# will see every email committed before now). The expiry is for a drain that never comes
# (its message lost, its worker killed before it began): after it, the next commit
# publishes another; meanwhile the every-minute sweep sends what is due anyway.
DRAIN_FLAG = "outbox:drain-on-its-way"
DRAIN_FLAG_SECONDS = 30
# One drain sends at most this many, then hands the rest to the next drain (see drain_outbox).
DRAIN_BATCH_SIZE = 100
# A drain or sweep claims this many due emails at a time, then sends them. Concurrent drains
# over a backlog so take different emails; a worker killed mid-chunk leaves at most this
# many "sending" until SENDING_TIMEOUT returns them to the sweep.
CLAIM_CHUNK = 10


def _wake_sender(email_ids: list[int]) -> None:
    """Have a worker send these emails, committed and due now; runs after the commit.

    With the cache on Redis (production), one ``drain_outbox`` task serves every commit
    that comes before it starts: publishing a task costs about half a millisecond of the
    request's CPU and a broker message, a Redis ``SET NX`` a tenth of that. A commit that
    finds ``DRAIN_FLAG`` set publishes nothing: the drain on its way clears the flag
    before it looks for due emails, and this commit came before that (it could not have
    found the flag set otherwise), so the drain sees its rows. Without Redis (the database
    cache, where asking would be a query), or while it does not answer (the broker may
    still), one ``send_emails`` task for these ids.
    """
    if isinstance(caches["default"], RedisCache):
        try:
            _wake_drain()
            return
        except CacheUnavailable:
            pass
    task_named("notifications.tasks.send_emails").delay(email_ids)


def _wake_drain() -> None:
    """Publish a drain unless one is on its way; ``CacheUnavailable`` if Redis is down."""
    with redis_or_unavailable():
        added = caches["default"].add(DRAIN_FLAG, 1, timeout=DRAIN_FLAG_SECONDS)
    if added:
        task_named("notifications.tasks.drain_outbox").delay()


def drain_outbox(limit: int = DRAIN_BATCH_SIZE) -> SweepResult:
    """Send the due emails, oldest first, at most ``limit``; what a wake-up runs.

    Clears ``DRAIN_FLAG`` first, so that every commit from then on wakes another drain,
    which sees what this one may already have missed. When ``limit`` emails were tried,
    more may be due: another drain is woken for them, so a backlog is shared between the
    workers' processes (each drain claims ``CLAIM_CHUNK`` emails at a time that no other
    holds; none goes twice) rather than held by one task. Stuck emails are left to the
    every-minute sweep, and so is the rest of a backlog while Redis does not answer.
    """
    # Should Redis not answer, send anyway: meanwhile commits publish their own tasks.
    with suppress(CacheUnavailable), redis_or_unavailable():
        caches["default"].delete(DRAIN_FLAG)
    result = _send_due(timezone.now(), limit)
    if result.tried >= limit:
        with suppress(CacheUnavailable):
            _wake_drain()
    return result


# Per thread, as Django's connections (and so their transactions) are.
_local = Local()


@contextmanager
def sent_together():
    """Have every email queued in this block sent by one wake-up (``_wake_sender``) when
    the caller's transaction commits, instead of one per ``queue_email`` call.

    A wake-up costs a Redis round trip, or without Redis publishing a task: about half a
    millisecond of CPU (Celery and kombu build the message, then a broker round trip),
    inside the request. Use it around a transaction that may queue several emails (a
    move that ends a game, one email per player; a timeout, the "we moved for you" email
    and the next player's turn). Use it inside
    that transaction (``transaction.atomic``); a block inside another adds to the outer
    one's task. Emails queued in a savepoint that rolled back may be named in the task:
    it finds their rows gone and skips them.
    """
    if getattr(_local, "batch", None) is not None:
        yield
        return
    batch: list[int] = []
    _local.batch = batch
    try:
        yield
    finally:
        # Even after an exception: the caller may have caught it and still commit what
        # was queued before it; if the transaction rolls back, on_commit drops the task.
        _local.batch = None
        if batch:
            _schedule_send(batch)


def send_pending_email(email_id: int) -> SendOutcome:
    """Send the email if it is pending and due, and record the outcome on its row.

    Safe to call any number of times, concurrently too: a guarded UPDATE claims the row, so
    only one caller sends it and the others get ``SKIPPED``. Send errors never propagate:
    transient ones (connection, timeouts, temporary SMTP replies, server configuration)
    leave the email pending with a growing backoff; permanent ones (address or message
    refused, invalid address) and the ``EMAIL_MAX_ATTEMPTS``-th failure mark it failed.
    Either way ``last_error`` says why. Celery's soft time limit is recorded as an
    interrupted attempt and re-raised (``delivery.attempt``).
    """
    return delivery.send_one(EMAIL, email_id)


class EmailTransport(Transport):
    """Emails through Django's mail backend, for the delivery machine; ``EMAIL`` is the one.

    Every email any task sends goes through ``delivery.attempt`` with it: one send path.
    """

    model = OutboundEmail
    logger = logger
    stuck_error = STUCK_ERROR
    interrupted_error = INTERRUPTED_ERROR

    def max_attempts(self) -> int:
        return settings.EMAIL_MAX_ATTEMPTS

    def deliver(self, row: OutboundEmail) -> None:
        # Its check first (Postponed, Withdrawn): a held email may no longer be wanted.
        send_checks.enforce(row.send_check, timezone.now())
        build_message(row).send()

    def failure_for(self, exc: Exception) -> Failure:
        # Any error is judged (an unexpected one, a bug in a backend, is transient: retried,
        # then it fails); only those smtplib, sockets and addresses raise are expected.
        return Failure(
            f"{type(exc).__name__}: {exc}",
            permanent=is_permanent_error(exc),
            unexpected=not isinstance(exc, OSError | ValueError),
        )

    def after_recording(self, row: OutboundEmail) -> None:
        # The attempt that counted gets its row in the error history.
        DeliveryAttempt.for_outcome(row, timezone.now()).save()


EMAIL = EmailTransport()


def build_message(email: OutboundEmail) -> OutgoingEmail:
    """The email as Django's mail API sends it: plain text with an HTML alternative.

    Renders an email queued unrendered (``OutboundEmail.rendered``). The row's own
    ``headers`` (e.g. ``List-Unsubscribe``, kept on one line: ``mime``) are added to ours.
    """
    email = email.rendered()
    message = OutgoingEmail(
        subject=email.subject,
        body=email.body_text,
        to=[email.to],
        # RFC 3834: tells auto-responders (vacation replies) not to answer a robot.
        headers={"Auto-Submitted": "auto-generated", **email.headers},
    )
    message.attach_alternative(email.body_html, "text/html")
    return message


def is_permanent_error(exc: Exception) -> bool:
    """Whether sending this email again cannot succeed: its address or content is refused.

    Connection trouble, timeouts, 4xx replies and refusals of our own sender or login are
    transient: they are fixed on the server side, after which the retries go through.
    """
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        # A 4xx refusal (mailbox busy, greylisting) may pass later; a 5xx one will not.
        return not exc.recipients or any(code >= 500 for code, _ in exc.recipients.values())
    if isinstance(exc, smtplib.SMTPDataError):
        return exc.smtp_code >= 500
    if isinstance(exc, OSError):  # every smtplib error, sockets, DNS
        return False
    # An unusable address or header (Django's BadHeaderError is a ValueError too).
    return isinstance(exc, ValueError)


def requeue_stuck_emails(now: datetime) -> int:
    """Return emails claimed longer than ``SENDING_TIMEOUT`` ago to pending; returns how many.

    Their worker died mid-send, so the email may have gone out: sending is at least once.
    The lost attempt counts, so an email that kills its worker every time ends up failed
    (and redacted) instead of looping forever (``delivery.requeue_stuck``).
    """
    return delivery.requeue_stuck(EMAIL, now)


def send_due_emails(limit: int | None = None) -> SweepResult:
    """Requeue stuck emails, then send the due pending ones, oldest due first.

    ``limit`` caps how many are tried in this run (None: all that are due now). Emails are
    claimed before they are sent (``CLAIM_CHUNK`` at a time, passing over those another
    run holds), so concurrent runs, drains and ``send_emails`` tasks never send one twice.
    """
    return delivery.sweep(EMAIL, limit=limit, chunk=CLAIM_CHUNK)


def _send_due(now: datetime, limit: int | None) -> SweepResult:
    """Send the emails due by ``now``, oldest first, at most ``limit``."""
    return delivery.result_of(delivery.drain(EMAIL, now, limit=limit, chunk=CLAIM_CHUNK))


def retry_emails_now(email_ids: Iterable[int]) -> int:
    """Make those of the emails that are failed or pending due now and schedule them.

    Returns how many were. Attempts are kept, so a failed email gets one more attempt (its
    record stays true); sent emails, those being sent and those whose content is purged
    (``retention``: nothing left to send) are left alone. A failed email's
    links were redacted when it failed, so it goes out with ``[redacted]`` in their place:
    the player reads it but must ask for a new link (a login link expires within the hour
    anyway).
    """
    email_ids = list(email_ids)
    with transaction.atomic():
        # An email whose content the retention sweep purged has nothing left to send.
        count = (
            OutboundEmail.objects.filter(
                id__in=email_ids, status__in=[Status.FAILED, Status.PENDING]
            )
            .exclude(retention.WITHOUT_CONTENT)
            .update(status=Status.PENDING, send_after=timezone.now())
        )
        # Ids that were not updated are skipped by the claim in send_pending_email.
        _schedule_send(email_ids)
    return count


def do_resend_emails(email_ids: Iterable[int], moderator, *, reason: str) -> int:
    """A moderator's resend: ``retry_emails_now`` plus one audit entry per email resent,
    about its recipient when they have an account (``get_user_model``: the outbox lies
    below accounts).

    Returns how many emails will be sent again (failed or pending ones; sent emails and
    those being sent are left alone and get no entry). The attempt itself is recorded in
    the email's ``DeliveryAttempt`` history when a worker makes it. ``reason`` is
    required: a blank one raises ``ServiceError("invalid")`` with nothing changed. The
    entries are written in this transaction.
    """
    reason = audit.log.clean_reason(reason)
    with transaction.atomic():
        emails = list(
            OutboundEmail.objects.select_for_update()
            .filter(
                id__in=list(email_ids),
                status__in=[Status.FAILED, Status.PENDING],
            )
            .order_by("id")
        )
        recipients = {
            user.email: user
            for user in get_user_model().objects.filter(email__in={email.to for email in emails})
        }
        for email in emails:
            audit.log.record(
                moderator,
                AuditAction.RESEND_EMAIL,
                reason=reason,
                user=recipients.get(email.to),
                extra={"email": email.id, "topic": email.topic, "status_was": email.status},
            )
        return retry_emails_now(email.id for email in emails)
