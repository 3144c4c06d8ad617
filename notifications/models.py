"""The email outbox: one row per email, written with the change that causes it, sent after."""

from datetime import datetime, timedelta

from django.db import models, transaction
from django.db.models.query_utils import DeferredAttribute
from django.utils import timezone

from piratz_site.redaction import redact_text, redact_tokens

from .rendering import SUBJECT_MAX_LENGTH, context_from_json, render_email

# Retry delays grow 1, 5, 25, 125 minutes, then stay at the cap: a mail server that is
# down for hours is retried a few times, not hammered every minute.
FIRST_RETRY_DELAY = timedelta(minutes=1)
RETRY_DELAY_FACTOR = 5
MAX_RETRY_DELAY = timedelta(hours=6)
# A row is "sending" only while a worker holds it; longer than this means the worker died.
SENDING_TIMEOUT = timedelta(minutes=10)
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


class ClaimableQuerySet(models.QuerySet):
    """The claim every outbox shares (emails here, webhook posts in ``webhooks``): its model
    has a ``Status`` with ``sending``, a ``claimed_at`` and its own ``due(now)``."""

    def claim(self, pk, now: datetime) -> bool:
        """Mark row ``pk`` ``sending`` (claimed at ``now``) if it is due; True if this call
        won it. A guarded UPDATE: of callers racing for one row, exactly one wins."""
        return (
            self.due(now).filter(pk=pk).update(status=self.model.Status.SENDING, claimed_at=now)
            == 1
        )

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
                self.model._default_manager.filter(pk__in=pks).update(
                    status=self.model.Status.SENDING, claimed_at=now
                )
        return pks


class OutboundEmailQuerySet(ClaimableQuerySet):
    """The outbox's conditions, each written once: the claim, the sweep and the tests use these."""

    def due(self, now: datetime) -> "OutboundEmailQuerySet":
        """Pending and due by ``now``: what the sweep sends and what a send may claim."""
        return self.filter(status=OutboundEmail.Status.PENDING, send_after__lte=now)

    def stuck(self, now: datetime) -> "OutboundEmailQuerySet":
        """Claimed more than ``SENDING_TIMEOUT`` before ``now``: the worker must have died.

        Exactly at the timeout is not stuck yet: the worker gets the benefit of the doubt.
        """
        return self.filter(
            status=OutboundEmail.Status.SENDING, claimed_at__lt=now - SENDING_TIMEOUT
        )


class _RenderedOnRead(DeferredAttribute):
    """A content field of an ``OutboundEmail`` stored unrendered (``context`` set): reading
    it renders the email first (``OutboundEmail.render``), so every reader (the worker,
    the admin, tests) sees the email as it is sent."""

    def __get__(self, instance, cls=None):
        if instance is not None:
            context = instance.__dict__.get("context")
            if context is not None and instance.__dict__.get("_rendered_from") is not context:
                instance.render()
        return super().__get__(instance, cls)

    def __set__(self, instance, value):
        # A data descriptor (unlike Django's), so that reads come here even when the
        # instance holds a value: the empty one of an unrendered row.
        instance.__dict__[self.field.attname] = value


class _StoredAsHeld:
    """What both content fields share: read through ``_RenderedOnRead``, and saved as the
    instance holds them, never a rendering made only to be read."""

    descriptor_class = _RenderedOnRead

    def pre_save(self, model_instance, add):
        return model_instance.__dict__.get(self.attname)


class RenderedCharField(_StoredAsHeld, models.CharField):
    """A content field of ``OutboundEmail`` (see ``_RenderedOnRead``)."""


class RenderedTextField(_StoredAsHeld, models.TextField):
    """The text counterpart of ``RenderedCharField``."""


class OutboundEmail(models.Model):
    """An email to one address; its status records every send outcome.

    Stored unrendered when it can be (``queue_email``): ``context`` (JSON, see
    ``notifications.rendering``) and ``language`` say what to render, ``subject`` and the
    bodies are empty in the row, and reading them renders the email on the instance. Once
    the email is done (sent or failed) the row holds the rendering, redacted, and no
    ``context``. Rendered when queued (``context`` None) when the context would not keep.

    Life cycle: ``pending`` (due at ``send_after``) → ``sending`` (claimed by one worker
    at ``claimed_at``) → ``sent``, or back to ``pending`` with a later ``send_after`` after a
    transient error, or ``failed`` after a permanent error or the last allowed attempt.
    The ``record_*`` methods change state on the instance only, so the rules are testable
    without a database; the outbox module writes them with guarded UPDATEs.

    Once an email is done (sent, or failed for good) its content keeps no live credential:
    every signed link in it is redacted (``redact_credentials``). Until then the row needs
    its links to send them; the admin shows even those redacted.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        SENDING = "sending", "Sending"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"  # permanent error, or retries exhausted

    to = models.EmailField()
    subject = RenderedCharField(max_length=SUBJECT_MAX_LENGTH)
    body_text = RenderedTextField()
    body_html = RenderedTextField()
    context = models.JSONField(
        null=True,
        blank=True,
        editable=False,
        help_text="What to render, until the email is done (then null: it holds its links).",
    )
    language = models.CharField(
        max_length=20, blank=True, help_text="The recipient's; empty: the site's default."
    )
    template = models.CharField(
        max_length=100, help_text="The directory under templates/emails/ it was rendered from."
    )
    topic = models.CharField(
        max_length=200,
        blank=True,
        db_index=True,
        help_text='What the email is about, e.g. "game:<uuid>", to find all emails of one game.',
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0, help_text="Send attempts made so far.")
    last_error = models.TextField(blank=True, help_text="Why the last attempt failed.")
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    send_after = models.DateTimeField(
        default=timezone.now, help_text="Not sent before this time (backoff after errors)."
    )
    sent_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(
        null=True, blank=True, help_text="When a worker last took it for sending."
    )
    headers = models.JSONField(
        default=dict,
        blank=True,
        help_text="Extra message headers (name -> value), e.g. List-Unsubscribe.",
    )

    # What may carry a credential (a signed link, a List-Unsubscribe URL).
    CONTENT_FIELDS = ("subject", "body_text", "body_html", "headers", "context")

    objects = OutboundEmailQuerySet.as_manager()

    class Meta:
        verbose_name = "outbound email"
        indexes = [
            # OutboundEmail.objects.due(), for the every-minute sweep; sent
            # rows pile up forever, so index only the few that are still waiting.
            models.Index(
                fields=["send_after"],
                condition=models.Q(status="pending"),
                name="outbox_pending_due_idx",
            ),
            # OutboundEmail.objects.stuck(): the sweep returns them to pending.
            models.Index(
                fields=["claimed_at"],
                condition=models.Q(status="sending"),
                name="outbox_sending_claimed_idx",
            ),
        ]

    def __str__(self) -> str:
        # Shown by the admin (titles, breadcrumbs, messages): never a live link.
        return f"{redact_tokens(self.subject)} → {self.to} ({self.status})"

    def render(self) -> None:
        """Render the stored ``context`` into this instance's subject and bodies (not the
        row). Raises what rendering raises (a template removed since it was queued)."""
        context = self.__dict__["context"]
        self.subject, self.body_text, self.body_html = render_email(
            self.template,
            context_from_json(context, self.language or None),
            language=self.language or None,
        )
        self._rendered_from = context

    def record_sent(self, now: datetime) -> None:
        """Count the successful attempt; the links in the email are redacted now."""
        self.status = self.Status.SENT
        self.attempts += 1
        self.sent_at = now
        self.last_error = ""
        self.redact_credentials()

    def record_failure(
        self, error: str, now: datetime, *, permanent: bool, max_attempts: int
    ) -> None:
        """Count a failed attempt: retry later after a transient error, else give up.

        Gives up (``failed``) on a permanent error or when this was attempt ``max_attempts``,
        and then redacts the links in the email. ``error`` is stored with addresses masked
        and tokens redacted (an SMTP refusal names the recipient).
        """
        self.attempts += 1
        # Redacted before the cut: a token cut in half would no longer be recognised.
        self.last_error = redact_text(error)[:MAX_ERROR_LENGTH]
        if permanent or self.attempts >= max_attempts:
            self.status = self.Status.FAILED
            self.redact_credentials()
        else:
            self.status = self.Status.PENDING
            self.send_after = now + retry_delay(self.attempts)

    def redact_credentials(self) -> None:
        """Replace every live credential in ``CONTENT_FIELDS`` by ``[redacted]``; idempotent.

        For an email that is done: its links reached the player or never will, and a row
        keeping them would let whoever reads the table (a moderator, a backup) log in as the
        player or answer their invitation. Only the instance changes; the caller saves.
        """
        try:
            self.subject = redact_tokens(self.subject)  # rendered first if it was not yet
        except Exception:
            # It cannot be rendered (e.g. its template is gone since it was queued), so it
            # was never sent: it keeps no content at all, and last_error says why.
            self.__dict__.update(subject="", body_text="", body_html="")
            self._rendered_from = self.__dict__.get("context")
        self.body_text = redact_tokens(self.body_text)
        self.body_html = redact_tokens(self.body_html)
        self.headers = {name: redact_tokens(str(value)) for name, value in self.headers.items()}
        self.context = None  # the rendering above replaces it


class DeliveryAttempt(models.Model):
    """One send attempt of an outbound email and what came of it: the error history.

    Written by the outbox in the same transaction as the email's outcome, only when that
    outcome was saved (the worker still held its claim), so every attempt counted in
    ``OutboundEmail.attempts`` has exactly one row. ``error`` is stored redacted and
    masked, as ``last_error`` is.
    """

    class Outcome(models.TextChoices):
        SENT = "sent", "Sent"
        RETRYING = "retrying", "Failed, will retry"  # transient error, back to pending
        FAILED = "failed", "Failed for good"  # permanent error or the last attempt

    email = models.ForeignKey(OutboundEmail, on_delete=models.CASCADE, related_name="deliveries")
    at = models.DateTimeField(default=timezone.now)
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["email", "at"], name="delivery_attempt_email_at")]

    def __str__(self) -> str:
        return f"{self.outcome} at {self.at:%Y-%m-%d %H:%M:%S} UTC"

    @classmethod
    def for_outcome(cls, email: OutboundEmail, at: datetime) -> "DeliveryAttempt":
        """The unsaved record of the attempt whose outcome ``email`` now holds."""
        outcome = {
            OutboundEmail.Status.SENT: cls.Outcome.SENT,
            OutboundEmail.Status.FAILED: cls.Outcome.FAILED,
        }.get(email.status, cls.Outcome.RETRYING)
        error = "" if outcome == cls.Outcome.SENT else email.last_error
        return cls(email=email, at=at, outcome=outcome, error=error)
