"""The one delivery machine of every outbox (emails, webhook posts): claim, attempt, record.

A row to deliver (``DeliveryRow``) is ``pending`` until it is due, then ``sending`` while
one worker holds its claim (a guarded UPDATE, so of callers racing for it exactly one
wins), then ``sent``; or ``pending`` again after a transient failure, due after the one
backoff (``retry_delay``); or ``failed`` after a permanent failure, the last allowed
attempt, or a refusal to try at all (``NotAttempted``). A row its transport finds not
due after all goes back to ``pending`` with a later due time (``Postponed``), and one no
longer wanted ends unsent (``Withdrawn``: for emails, ``dropped``); neither counts as an
attempt. A claim held longer than the
kind's ``stuck_after()`` means its worker died: ``requeue_stuck`` counts the lost attempt
and makes the row due again. Each kind supplies a ``Transport`` (how to send one row and
how to judge what went wrong); ``notifications.outbox`` is the email one,
``webhooks.delivery`` the webhook one.

It lives with the outbox, the first kind it served; webhooks and push import it from
here (their floors are above the outbox's). The errors it stores pass ``core.redaction``.
"""

import abc
import logging
import time
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, ClassVar, Self, TypeVar

from celery.exceptions import SoftTimeLimitExceeded
from django.db import models, transaction
from django.utils import timezone

from core.redaction import redact_text

# Retry delays grow 1, 5, 25, 125 minutes, then stay at the cap: a server that is down for
# hours is retried a few times, not hammered every minute.
FIRST_RETRY_DELAY = timedelta(minutes=1)
RETRY_DELAY_FACTOR = 5
MAX_RETRY_DELAY = timedelta(hours=6)
# last_error is for moderators; SMTP replies are short, a runaway message is cut.
MAX_ERROR_LENGTH = 2000


def retry_delay(attempts: int) -> timedelta:
    """How long to wait after the ``attempts``-th failed attempt (1-based) before the next."""
    if attempts < 1:
        raise ValueError("retry_delay() is for failed attempts, which count from 1.")
    # Step by step under the cap: FACTOR ** attempts would overflow timedelta for large counts.
    delay = FIRST_RETRY_DELAY
    for _ in range(attempts - 1):
        delay = min(delay * RETRY_DELAY_FACTOR, MAX_RETRY_DELAY)
    return delay


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    SENDING = "sending", "Sending"
    SENT = "sent", "Sent"
    FAILED = "failed", "Failed"  # permanent error, retries exhausted, or not to be tried


class SendOutcome(StrEnum):
    """What one attempt to deliver a row did."""

    SENT = "sent"
    RETRYING = "retrying"  # transient error: pending again, due after a backoff
    FAILED = "failed"  # permanent error or last attempt: a moderator must look
    SKIPPED = "skipped"  # not claimed: already taken, sent, failed, not yet due or gone
    HELD = "held"  # claimed, then Postponed by its transport: pending again, due later
    DROPPED = "dropped"  # claimed, then Withdrawn by its transport: done, never sent


@dataclass(frozen=True)
class SweepResult:
    """What one sweep or drain did, for logs, task results and the management command."""

    requeued: int = 0
    sent: int = 0
    retrying: int = 0
    failed: int = 0
    skipped: int = 0
    held: int = 0
    dropped: int = 0

    @property
    def tried(self) -> int:
        """How many it tried to send: all but the requeued."""
        return self.sent + self.retrying + self.failed + self.skipped + self.held + self.dropped


# The kind of row a queryset holds, so that a kind's manager returns its own rows.
_RowT = TypeVar("_RowT", bound="DeliveryRow")


class DeliveryQuerySet(models.QuerySet[_RowT]):
    """The machine's conditions on rows of one kind, each written once."""

    def due(self, now: datetime) -> Self:
        """Pending and due by ``now``: what a sweep sends and what a send may claim."""
        return self.filter(status=DeliveryStatus.PENDING, **{f"{self.model.DUE_FIELD}__lte": now})

    def stuck(self, now: datetime, older_than: timedelta | None = None) -> Self:
        """Claimed more than ``older_than`` (default: the kind's ``stuck_after()``) before
        ``now``: the worker must have died. Exactly at the threshold is not stuck yet."""
        if older_than is None:
            older_than = self.model.stuck_after()
        return self.filter(status=DeliveryStatus.SENDING, claimed_at__lt=now - older_than)

    def claim(self, pk: Any, now: datetime) -> bool:
        """Mark row ``pk`` ``sending`` (claimed at ``now``) if it is due; True if this call
        won it. A guarded UPDATE: of callers racing for one row, exactly one wins."""
        claimed = self.due(now).filter(pk=pk).update(status=DeliveryStatus.SENDING, claimed_at=now)
        return claimed == 1

    def claim_first(self, count: int, now: datetime) -> list:
        """Mark the first ``count`` rows of this queryset (the caller filters it to due rows
        and orders it) ``sending``, claimed at ``now``; their pks, this caller's alone.

        One ``SELECT ... FOR UPDATE SKIP LOCKED`` and one UPDATE, in a transaction:
        concurrent callers pass over each other's rows, so they take different ones instead
        of racing for the same (with ``claim`` one row at a time down a shared list, each
        of N callers spent N-1 lost UPDATEs per row). SQLite has no row locks; there the
        transaction (IMMEDIATE, as settings open them) holds the whole database instead.
        """
        with transaction.atomic():
            pks = list(
                self.select_for_update(skip_locked=True).values_list("pk", flat=True)[:count]
            )
            if pks:
                self.model.objects.filter(pk__in=pks).update(
                    status=DeliveryStatus.SENDING, claimed_at=now
                )
        return pks

    def release(self, pks: list, claimed_at: datetime) -> int:
        """Give back claims made at ``claimed_at`` and not yet tried: pending again, no
        attempt counted. Guarded by the claim, so a row tried meanwhile is left alone."""
        return self.filter(pk__in=pks, status=DeliveryStatus.SENDING, claimed_at=claimed_at).update(
            status=DeliveryStatus.PENDING, claimed_at=None
        )


class DeliveryRow(models.Model):
    """A row the machine delivers: the state it needs, and the rules of each transition.

    A concrete kind names its due column in ``DUE_FIELD`` (emails ``send_after``, webhook
    posts ``next_attempt_at``: the columns they had before they shared this machine), says
    in ``stuck_after()`` how long a claim may be held, and may override ``finished()``
    (what to do when the row is done for good) and ``outcome_fields()``. The ``record_*``
    methods change the instance only, so the rules are testable without a database; the
    machine saves them with a guarded UPDATE.
    """

    Status = DeliveryStatus
    DUE_FIELD: ClassVar[str]
    # Each kind declares its own (a DeliveryQuerySet subclass); the machine reaches rows
    # of any kind through it.
    objects: Any

    status = models.CharField(
        max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveIntegerField(default=0, help_text="Send attempts made so far.")
    last_error = models.TextField(blank=True, help_text="Why the last attempt failed.")
    sent_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(
        null=True, blank=True, help_text="When a worker last took it for sending."
    )

    class Meta:
        abstract = True

    @classmethod
    def stuck_after(cls) -> timedelta:
        """How long a claim is held before its worker counts as dead; each kind says."""
        raise NotImplementedError(f"{cls.__name__} must say when its claims are stuck.")

    def log_label(self) -> str:
        """How logs name this row: its ids, never its content."""
        return f"{type(self).__name__} {self.pk}"

    @property
    def is_done(self) -> bool:
        return self.status in (DeliveryStatus.SENT, DeliveryStatus.FAILED)

    def record_sent(self, now: datetime) -> None:
        """Count the successful attempt."""
        self.status = DeliveryStatus.SENT
        self.attempts += 1
        self.sent_at = now
        self.last_error = ""
        self.finished()

    def record_failure(
        self, error: str, now: datetime, *, permanent: bool, max_attempts: int
    ) -> None:
        """Count a failed attempt: due again after the backoff, or ``failed`` when it is
        permanent or attempt ``max_attempts``. ``error`` is stored with addresses masked
        and tokens redacted (an SMTP refusal names the recipient), then cut."""
        self._count_failure(error, max_attempts, permanent=permanent)
        if not self.is_done:
            setattr(self, self.DUE_FIELD, now + retry_delay(self.attempts))

    def record_lost(self, error: str, now: datetime, *, max_attempts: int) -> None:
        """Count an attempt whose worker died: due again at once (the lost attempt already
        waited out the stuck threshold), or ``failed`` if it was the last allowed."""
        self._count_failure(error, max_attempts, permanent=False)
        if not self.is_done:
            setattr(self, self.DUE_FIELD, now)

    def record_postponed(self, until: datetime) -> None:
        """Make the row due at ``until`` instead, unsent and with no attempt counted
        (``Postponed``): its transport found that it must wait longer."""
        self.status = DeliveryStatus.PENDING
        setattr(self, self.DUE_FIELD, until)

    def record_withdrawn(self, reason: str) -> None:
        """End the row unsent, no attempt counted (``Withdrawn``: it is no longer wanted);
        ``reason`` says why. Only kinds whose transport withdraws rows have a status for
        that: they override this."""
        raise NotImplementedError(f"{type(self).__name__} has no status for a withdrawn row.")

    def record_not_attempted(self, error: str) -> None:
        """Fail the row without trying it (no attempt is counted): ``error`` says why."""
        self.status = DeliveryStatus.FAILED
        self.last_error = redact_text(error)[:MAX_ERROR_LENGTH]
        self.finished()

    def _count_failure(self, error: str, max_attempts: int, *, permanent: bool) -> None:
        self.attempts += 1
        # Redacted before the cut: a token cut in half would no longer be recognised.
        self.last_error = redact_text(error)[:MAX_ERROR_LENGTH]
        if permanent or self.attempts >= max_attempts:
            self.status = DeliveryStatus.FAILED
            self.finished()
        else:
            self.status = DeliveryStatus.PENDING

    def finished(self) -> None:
        """Called on the instance when it becomes sent or failed; nothing by default."""

    def outcome_fields(self) -> list[str]:
        """The fields an attempt's outcome writes to the row."""
        return ["status", "attempts", "last_error", self.DUE_FIELD, "sent_at"]


@dataclass(frozen=True)
class Failure:
    """A transport's judgement of an error: its text for ``last_error``, whether trying
    again cannot help, and whether it is a bug (logged with its traceback)."""

    error: str
    permanent: bool
    unexpected: bool = False


class NotAttempted(Exception):
    """Raised by ``Transport.deliver`` for a row that must not be tried any more (e.g. its
    webhook was disabled): it fails with this message, and no attempt is counted."""


class Postponed(Exception):
    """Raised by ``Transport.deliver`` for a row that must wait until ``until`` (aware)
    before it is tried: it goes back to ``pending``, due then, and no attempt is counted."""

    def __init__(self, until: datetime) -> None:
        super().__init__(f"postponed until {until.isoformat()}")
        self.until = until


class Withdrawn(Exception):
    """Raised by ``Transport.deliver`` for a row that is no longer wanted (e.g. a turn
    email whose turn has passed): it ends unsent (``DeliveryRow.record_withdrawn``) with
    this message as its reason, and no attempt is counted."""


class Transport(abc.ABC):
    """How one kind of row leaves the service. Subclasses set the class attributes and
    implement ``deliver`` and ``failure_for``; the ``*_recording`` hooks run inside the
    transaction that saves an outcome."""

    model: type[DeliveryRow]
    logger: logging.Logger
    stuck_error: str  # last_error of an attempt whose worker died
    interrupted_error: str  # last_error of an attempt stopped at the soft time limit

    @abc.abstractmethod
    def max_attempts(self) -> int:
        """Attempts per row before it fails for good (read at call time: a setting)."""

    @abc.abstractmethod
    def deliver(self, row: Any) -> None:
        """Send ``row``; return when it was delivered, raise otherwise."""

    @abc.abstractmethod
    def failure_for(self, exc: Exception) -> Failure:
        """What ``exc``, raised by ``deliver``, means for the row."""

    def load(self, pk: Any) -> Any:
        """The row to deliver, with whatever ``deliver`` reads alongside it."""
        return self.model.objects.get(pk=pk)

    def before_recording(self, row: Any) -> None:
        """Runs before the outcome's guarded UPDATE (e.g. to take locks in a fixed order)."""
        return None

    def after_recording(self, row: Any) -> None:
        """Runs after the guarded UPDATE saved the outcome now on ``row``, and only then;
        not for a row that was not tried (``Postponed``, ``Withdrawn``)."""
        return None


def send_one(transport: Transport, pk: Any) -> SendOutcome:
    """Claim row ``pk`` if it is due and ``attempt`` it; ``SKIPPED`` if this caller did not
    win the claim. Safe to call any number of times, concurrently too."""
    claimed_at = timezone.now()
    if not transport.model.objects.claim(pk, claimed_at):
        return SendOutcome.SKIPPED
    return attempt(transport, pk, claimed_at)


def attempt(transport: Transport, pk: Any, claimed_at: datetime) -> SendOutcome:
    """Deliver a row this caller claimed at ``claimed_at`` and record the outcome.

    Errors never propagate: each is judged by ``transport.failure_for`` and recorded (an
    unexpected one is retried like a transient one, then fails). The one exception is
    Celery's soft time limit: the attempt is recorded as interrupted (releasing the claim,
    or the row would sit in ``sending`` until the stuck sweep) and the exception re-raised,
    so the task ends before its hard limit kills it mid-send.

    A ``Postponed`` or ``Withdrawn`` row was not tried: its outcome (``HELD``, ``DROPPED``)
    is saved under the claim without the transport's ``after_recording``.
    """
    row = transport.load(pk)
    try:
        transport.deliver(row)
    except Postponed as later:
        row.record_postponed(later.until)
        _save(transport, row, claimed_at, attempted=False)
        return SendOutcome.HELD
    except Withdrawn as unwanted:
        row.record_withdrawn(str(unwanted))
        transport.logger.info("%s: dropped unsent: %s", row.log_label(), unwanted)
        _save(transport, row, claimed_at, attempted=False)
        return SendOutcome.DROPPED
    except NotAttempted as exc:
        row.record_not_attempted(str(exc))
    except SoftTimeLimitExceeded:
        _record_failure(transport, row, claimed_at, Failure(transport.interrupted_error, False))
        raise
    except Exception as exc:
        _record_failure(transport, row, claimed_at, transport.failure_for(exc), exc)
        return outcome_of(row)
    else:
        row.record_sent(timezone.now())
    _save(transport, row, claimed_at)
    return outcome_of(row)


def outcome_of(row: DeliveryRow) -> SendOutcome:
    """The ``SendOutcome`` of the attempt whose result ``row`` holds."""
    if row.status == DeliveryStatus.SENT:
        return SendOutcome.SENT
    return SendOutcome.FAILED if row.status == DeliveryStatus.FAILED else SendOutcome.RETRYING


def _record_failure(
    transport: Transport,
    row: DeliveryRow,
    claimed_at: datetime,
    failure: Failure,
    exc: Exception | None = None,
) -> None:
    row.record_failure(
        failure.error,
        timezone.now(),
        permanent=failure.permanent,
        max_attempts=transport.max_attempts(),
    )
    # Never the content (players' hands, a webhook's URL): the ids lead a moderator to it.
    transport.logger.log(
        logging.ERROR if failure.unexpected else logging.WARNING,
        "%s: attempt %d failed (%s), now %s: %s",
        row.log_label(),
        row.attempts,
        "permanent" if failure.permanent else "transient",
        row.status,
        row.last_error,
        exc_info=exc if failure.unexpected else None,
    )
    _save(transport, row, claimed_at)


def _save(
    transport: Transport, row: DeliveryRow, claimed_at: datetime, *, attempted: bool = True
) -> None:
    # Guarded by our claim: if we took so long that the sweep handed the row to another
    # worker, that worker's outcome wins and ours is only logged.
    if not save_outcome(transport, row, claimed_at, attempted=attempted):
        transport.logger.warning(
            "%s: outcome %s not saved, the claim from %s was taken back by the sweep",
            row.log_label(),
            row.status,
            claimed_at.isoformat(),
        )


def save_outcome(
    transport: Transport, row: DeliveryRow, claimed_at: datetime, *, attempted: bool = True
) -> bool:
    """Write the outcome ``row`` holds if the row is still ``sending`` under the claim made
    at ``claimed_at``, with the transport's hooks, in one transaction; True if it was.
    ``attempted=False`` (the row was not tried): without ``after_recording``."""
    fields = {name: getattr(row, name) for name in row.outcome_fields()}
    with transaction.atomic():
        transport.before_recording(row)
        saved = (
            type(row)
            .objects.filter(pk=row.pk, status=DeliveryStatus.SENDING, claimed_at=claimed_at)
            .update(**fields)
        )
        if saved == 1 and attempted:
            transport.after_recording(row)
    return saved == 1


def requeue_stuck(transport: Transport, now: datetime) -> int:
    """Record the attempts of rows claimed longer than ``stuck_after()`` ago as lost
    (``record_lost``); returns how many. Their worker died mid-send, so the row may have
    gone out: delivery is at least once. The lost attempt counts, so a row that kills its
    worker every time ends up failed instead of looping forever.
    """
    # One guarded UPDATE per row (stuck rows are rare): the claim condition keeps
    # concurrent sweeps from counting an attempt twice, and the hooks run only for the
    # UPDATE that counted.
    manager = transport.model.objects
    requeued = given_up = 0
    for pk in manager.stuck(now).values_list("pk", flat=True):
        row = transport.load(pk)
        if row.status != DeliveryStatus.SENDING:  # moved on since the query above
            continue
        claimed_at = row.claimed_at
        row.record_lost(transport.stuck_error, now, max_attempts=transport.max_attempts())
        if not save_outcome(transport, row, claimed_at):
            continue
        if row.status == DeliveryStatus.FAILED:
            given_up += 1
        else:
            requeued += 1
    if requeued or given_up:
        transport.logger.warning(
            "%s: %d stuck requeued, %d given up", transport.model.__name__, requeued, given_up
        )
    return requeued + given_up


def drain(
    transport: Transport,
    now: datetime,
    *,
    limit: int | None,
    chunk: int,
    budget_seconds: float | None = None,
) -> Counter:
    """Claim the rows due by ``now``, oldest due first, ``chunk`` at a time
    (``claim_first``, passing over rows other drains hold), and ``attempt`` each; how many
    had each ``SendOutcome``.

    Stops when ``limit`` were tried (None: all), none is due, or ``budget_seconds`` have
    passed (checked before each claim; at least one chunk is tried). Should the soft time
    limit stop it, the claims it has not tried yet are released first.
    """
    manager = transport.model.objects
    due = manager.due(now).order_by(transport.model.DUE_FIELD, "pk")
    stop_at = None if budget_seconds is None else time.monotonic() + budget_seconds
    outcomes: Counter = Counter()
    while (tried := outcomes.total()) != limit:
        if tried and stop_at is not None and time.monotonic() >= stop_at:
            break
        claimed_at = timezone.now()
        pks = due.claim_first(chunk if limit is None else min(chunk, limit - tried), claimed_at)
        if not pks:
            break
        for index, pk in enumerate(pks):
            try:
                outcomes[attempt(transport, pk, claimed_at)] += 1
            except SoftTimeLimitExceeded:
                manager.release(pks[index + 1 :], claimed_at)
                raise
    return outcomes


def sweep(
    transport: Transport, *, limit: int | None, chunk: int, budget_seconds: float | None = None
) -> SweepResult:
    """What an every-minute sweep does: ``requeue_stuck``, then ``drain`` what is due."""
    now = timezone.now()
    requeued = requeue_stuck(transport, now)
    outcomes = drain(transport, now, limit=limit, chunk=chunk, budget_seconds=budget_seconds)
    return result_of(outcomes, requeued=requeued)


def result_of(outcomes: Counter, *, requeued: int = 0) -> SweepResult:
    """The ``SweepResult`` of a count of ``SendOutcome``s."""
    return SweepResult(requeued=requeued, **{str(k): v for k, v in outcomes.items()})
