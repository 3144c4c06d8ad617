"""Queue emails in the outbox and send them; other apps call only ``queue_email``."""

import dataclasses
import logging
import smtplib
from collections import Counter
from collections.abc import Callable, Iterable
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from asgiref.local import Local
from celery import current_app
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from piratz_site.cache_outage import CacheUnavailable, redis_or_unavailable

from .mime import OutgoingEmail
from .models import ClaimableQuerySet, DeliveryAttempt, OutboundEmail
from .rendering import (  # render_email: also the outbox's to callers (tests, previews)
    Composed,
    NotJsonSafe,
    check_templates,
    context_to_json,
    render_email,
)

logger = logging.getLogger(__name__)

Status = OutboundEmail.Status
STUCK_ERROR = "The worker stopped while sending; the email may or may not have gone out."


class SendOutcome(StrEnum):
    """What one call of ``send_pending_email`` did."""

    SENT = "sent"
    RETRYING = "retrying"  # transient error: pending again, due after a backoff
    FAILED = "failed"  # permanent error or last attempt: a moderator must look
    SKIPPED = "skipped"  # not claimed: already taken, sent, failed, not yet due or gone


@dataclass(frozen=True)
class SweepResult:
    """What one outbox sweep run did (``send_due_emails``, and ``webhooks.delivery.
    send_due_deliveries`` for webhook posts), for logs and the management command."""

    requeued: int = 0
    sent: int = 0
    retrying: int = 0
    failed: int = 0
    skipped: int = 0

    @property
    def tried(self) -> int:
        """How many it tried to send: all but the requeued."""
        return self.sent + self.retrying + self.failed + self.skipped


def queue_email(
    to: str,
    template: str,
    context: dict | Composed,
    *,
    topic: str = "",
    send_after: datetime | None = None,
    headers: dict[str, str] | None = None,
    language: str | None = None,
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
    A missing template raises ``TemplateDoesNotExist`` here, at the caller; an unusable
    address is only found when sending and marks the email failed.

    Rendering waits for the worker (the row keeps ``context`` as JSON, see
    ``notifications.rendering``) unless the context holds something JSON would not give
    back exactly; then it is rendered here. Either way the returned row, and any row read
    back, shows the rendered email. A ``Composed`` context is built when the email is
    read, by its composer, in ``language``; its arguments must keep in JSON
    (``NotJsonSafe`` here otherwise).
    """
    try:
        stored_context = context_to_json(context, language)
    except NotJsonSafe:
        if isinstance(context, Composed):
            raise
        stored_context = None
    if stored_context is None:
        subject, body_text, body_html = render_email(template, context, language=language)
    else:
        check_templates(template)
        subject = body_text = body_html = ""  # rendered when read: by the worker sending it
    now = timezone.now()
    email = OutboundEmail.objects.create(
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
    )
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
    from .tasks import send_emails  # imported here: tasks imports this module

    if isinstance(caches["default"], RedisCache):
        try:
            _wake_drain()
            return
        except CacheUnavailable:
            pass
    send_emails.delay(email_ids)


def _wake_drain() -> None:
    """Publish a drain unless one is on its way; ``CacheUnavailable`` if Redis is down."""
    from .tasks import drain_outbox

    with redis_or_unavailable():
        added = caches["default"].add(DRAIN_FLAG, 1, timeout=DRAIN_FLAG_SECONDS)
    if added:
        drain_outbox.delay()


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
    _local.batch = batch = []
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
    Either way ``last_error`` says why.
    """
    claimed_at = timezone.now()
    if not OutboundEmail.objects.claim(email_id, claimed_at):
        return SendOutcome.SKIPPED
    return _send_claimed(email_id, claimed_at)


def _send_claimed(email_id: int, claimed_at: datetime) -> SendOutcome:
    """Send an email this caller claimed at ``claimed_at`` and record the outcome (see
    ``send_pending_email``)."""
    email = OutboundEmail.objects.get(id=email_id)

    try:
        build_message(email).send()
    # Any error must be recorded, or the row would sit in "sending" until the sweep; an
    # unexpected one (a bug in a backend) is retried like a transient one, then fails.
    except Exception as exc:
        permanent = is_permanent_error(exc)
        email.record_failure(
            f"{type(exc).__name__}: {exc}",
            timezone.now(),
            permanent=permanent,
            max_attempts=settings.EMAIL_MAX_ATTEMPTS,
        )
        expected = isinstance(exc, OSError | ValueError)  # smtplib errors are OSErrors
        # Never log the body (players' hands are secret): the id leads a moderator to it.
        logger.log(
            logging.WARNING if expected else logging.ERROR,
            "Email %s: attempt %d failed (%s), now %s: %s",
            email.id,
            email.attempts,
            "permanent" if permanent else "transient",
            email.status,
            email.last_error,
            exc_info=not expected,
        )
    else:
        email.record_sent(timezone.now())
    _save_outcome(email, claimed_at)

    if email.status == Status.SENT:
        return SendOutcome.SENT
    return SendOutcome.FAILED if email.status == Status.FAILED else SendOutcome.RETRYING


def build_message(email: OutboundEmail) -> OutgoingEmail:
    """The email as Django's mail API sends it: plain text with an HTML alternative.

    The row's own ``headers`` (e.g. ``List-Unsubscribe``, kept on one line: ``mime``) are
    added to ours.
    """
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


def _save_outcome(email: OutboundEmail, claimed_at: datetime) -> None:
    # Guarded by our claim: if we took so long that the sweep handed the email to another
    # worker, that worker's outcome wins and ours is only logged.
    outcome = {
        "status": email.status,
        "attempts": email.attempts,
        "last_error": email.last_error,
        "send_after": email.send_after,
        "sent_at": email.sent_at,
    }
    if email.status in (Status.SENT, Status.FAILED):
        # Done: the record_* methods redacted the links in it; the row keeps no credential.
        outcome.update({field: getattr(email, field) for field in OutboundEmail.CONTENT_FIELDS})
    with transaction.atomic():
        saved = OutboundEmail.objects.filter(
            id=email.id, status=Status.SENDING, claimed_at=claimed_at
        ).update(**outcome)
        if saved == 1:  # the attempt that counted gets its row in the error history
            DeliveryAttempt.for_outcome(email, timezone.now()).save()
    if saved != 1:
        logger.warning(
            "Email %s: outcome %s not saved, the claim from %s was taken back by the sweep",
            email.id,
            email.status,
            claimed_at.isoformat(),
        )


def requeue_stuck_emails(now: datetime) -> int:
    """Return emails claimed longer than ``SENDING_TIMEOUT`` ago to pending; returns how many.

    Their worker died mid-send, so the email may have gone out: sending is at least once.
    The lost attempt counts, so an email that kills its worker every time ends up failed
    instead of looping forever.
    """
    # One guarded UPDATE per row (stuck emails are rare): the status condition keeps
    # concurrent sweeps from counting an attempt twice, and the history gets a row only for
    # the UPDATE that counted.
    last_chance = settings.EMAIL_MAX_ATTEMPTS - 1
    given_up, requeued = [], 0
    for email_id, attempts in OutboundEmail.objects.stuck(now).values_list("id", "attempts"):
        giving_up = attempts >= last_chance
        with transaction.atomic():
            changed = (
                OutboundEmail.objects.stuck(now)
                .filter(id=email_id)
                .update(
                    status=Status.FAILED if giving_up else Status.PENDING,
                    attempts=F("attempts") + 1,
                    last_error=STUCK_ERROR,
                    **({} if giving_up else {"send_after": now}),
                )
            )
            if changed:
                DeliveryAttempt.objects.create(
                    email_id=email_id,
                    at=now,
                    outcome=(
                        DeliveryAttempt.Outcome.FAILED
                        if giving_up
                        else DeliveryAttempt.Outcome.RETRYING
                    ),
                    error=STUCK_ERROR,
                )
        if changed and giving_up:
            given_up.append(email_id)
        elif changed:
            requeued += 1
    _redact_failed_emails(given_up)
    if given_up or requeued:
        logger.warning("Outbox: %d stuck emails requeued, %d given up", requeued, len(given_up))
    return requeued + len(given_up)


def _redact_failed_emails(email_ids: list[int]) -> None:
    # Failed for good, so their links must not stay usable at rest. Guarded by the status:
    # never the content of a row that another process moved on meanwhile.
    for email in OutboundEmail.objects.filter(id__in=email_ids, status=Status.FAILED):
        email.redact_credentials()
        OutboundEmail.objects.filter(id=email.id, status=Status.FAILED).update(
            **{field: getattr(email, field) for field in OutboundEmail.CONTENT_FIELDS}
        )


def send_due_emails(limit: int | None = None) -> SweepResult:
    """Requeue stuck emails, then send the due pending ones, oldest due first.

    ``limit`` caps how many are tried in this run (None: all that are due now). Emails are
    claimed before they are sent (``CLAIM_CHUNK`` at a time, passing over those another
    run holds), so concurrent runs, drains and ``send_emails`` tasks never send one twice.
    """
    now = timezone.now()
    requeued = requeue_stuck_emails(now)
    return dataclasses.replace(_send_due(now, limit), requeued=requeued)


def _send_due(now: datetime, limit: int | None) -> SweepResult:
    """Send the emails due by ``now``, oldest first, at most ``limit``."""
    due = OutboundEmail.objects.due(now).order_by("send_after", "id")
    outcomes = send_claimed_in_chunks(due, limit, _send_claimed)
    return SweepResult(**{str(k): v for k, v in outcomes.items()})


def send_claimed_in_chunks(
    due: ClaimableQuerySet, limit: int | None, send: Callable[[int, datetime], SendOutcome]
) -> Counter:
    """Claim the rows of ``due`` (due rows, in the order to send them) ``CLAIM_CHUNK`` at a
    time (``ClaimableQuerySet.claim_first``) and ``send(pk, claimed_at)`` each, until
    ``limit`` were tried (None: all) or none is left; how many had each outcome.

    What every outbox's sweep shares (emails, and webhook posts in ``webhooks.delivery``).
    """
    outcomes = Counter()
    while (tried := outcomes.total()) != limit:
        claimed_at = timezone.now()
        chunk = CLAIM_CHUNK if limit is None else min(CLAIM_CHUNK, limit - tried)
        pks = due.claim_first(chunk, claimed_at)
        if not pks:
            break
        outcomes.update(send(pk, claimed_at) for pk in pks)
    return outcomes


def retry_emails_now(email_ids: Iterable[int]) -> int:
    """Make those of the emails that are failed or pending due now and schedule them.

    Returns how many were. Attempts are kept, so a failed email gets one more attempt (its
    record stays true); sent emails and those being sent are left alone. A failed email's
    links were redacted when it failed, so it goes out with ``[redacted]`` in their place:
    the player reads it but must ask for a new link (a login link expires within the hour
    anyway).
    """
    email_ids = list(email_ids)
    with transaction.atomic():
        count = OutboundEmail.objects.filter(
            id__in=email_ids, status__in=[Status.FAILED, Status.PENDING]
        ).update(status=Status.PENDING, send_after=timezone.now())
        # Ids that were not updated are skipped by the claim in send_pending_email.
        _schedule_send(email_ids)
    return count


def do_resend_emails(email_ids: Iterable[int], moderator, *, reason: str) -> int:
    """A moderator's resend: ``retry_emails_now`` plus one audit entry per email resent.

    Returns how many emails will be sent again (failed or pending ones; sent emails and
    those being sent are left alone and get no entry). The attempt itself is recorded in
    the email's ``DeliveryAttempt`` history when a worker makes it. ``reason`` is
    required: a blank one raises ``ServiceError("invalid")`` with nothing changed. The
    moderation app's ``audit.record`` writes the entries, in this transaction.
    """
    # Imported here: the outbox is imported by every app that sends email, the games app's
    # actions too, which moderation.audit imports in turn.
    from accounts.models import User
    from moderation import audit
    from moderation.models import AuditAction

    reason = audit.clean_reason(reason)
    with transaction.atomic():
        emails = list(
            OutboundEmail.objects.select_for_update()
            .filter(id__in=list(email_ids), status__in=[Status.FAILED, Status.PENDING])
            .order_by("id")
        )
        recipients = {
            user.email: user
            for user in User.objects.filter(email__in={email.to for email in emails})
        }
        for email in emails:
            audit.record(
                moderator,
                AuditAction.RESEND_EMAIL,
                reason=reason,
                user=recipients.get(email.to),
                extra={"email": email.id, "topic": email.topic, "status_was": email.status},
            )
        return retry_emails_now(email.id for email in emails)
