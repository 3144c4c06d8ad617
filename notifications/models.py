"""The email outbox: one row per email, written with the change that causes it, sent after."""

from datetime import datetime, timedelta

from django.db import models
from django.utils import timezone

from core.redaction import redact_tokens

from .delivery import DeliveryQuerySet, DeliveryRow, DeliveryStatus
from .delivery import retry_delay as retry_delay  # the one backoff, named here too
from .rendering import SUBJECT_MAX_LENGTH, context_from_json, render_email

# A row is "sending" only while a worker holds it; longer than this means the worker died.
SENDING_TIMEOUT = timedelta(minutes=10)


class EmailStatus(models.TextChoices):
    """The delivery machine's statuses (``DeliveryStatus``, same values), and ``dropped``."""

    PENDING = DeliveryStatus.PENDING.value, DeliveryStatus.PENDING.label
    SENDING = DeliveryStatus.SENDING.value, DeliveryStatus.SENDING.label
    SENT = DeliveryStatus.SENT.value, DeliveryStatus.SENT.label
    FAILED = DeliveryStatus.FAILED.value, DeliveryStatus.FAILED.label
    # Never sent: when it was due, its send check found it no longer wanted (a held turn
    # email whose turn had passed). Not a failure: nothing for a moderator to do.
    DROPPED = "dropped", "Dropped (no longer wanted)"


# Emails waiting for another attempt after a transient error: the admin dashboard's count
# and the outbox admin's "delivery" filter, which its tile links to.
RETRYING = models.Q(status=EmailStatus.PENDING, attempts__gt=0)


class OutboundEmailQuerySet(DeliveryQuerySet["OutboundEmail"]):
    """The outbox's conditions (``due``, ``stuck``, the claims): the delivery machine's."""


class OutboundEmail(DeliveryRow):
    """An email to one address; its status records every send outcome.

    Stored unrendered when it can be (``queue_email``): ``context`` (JSON, see
    ``notifications.rendering``) and ``language`` say what to render, and ``subject`` and
    the bodies are empty in the row. Whoever reads or sends the content asks for it with
    ``rendered()``. Once the email is done (sent or failed) the row holds the rendering,
    redacted, and no ``context``. Rendered when queued (``context`` None) when the context
    would not keep.

    Life cycle: ``pending`` (due at ``send_after``) → ``sending`` (claimed by one worker
    at ``claimed_at``) → ``sent``, or back to ``pending`` with a later ``send_after`` after a
    transient error, or ``failed`` after a permanent error or the last allowed attempt.
    An email with a ``send_check`` (``notifications.send_checks``) asks it when due, under
    its claim: it may wait longer (``pending`` again, a later ``send_after``, no attempt
    counted) or end ``dropped``, unsent, its ``last_error`` saying why.
    The state and its ``record_*`` methods are the delivery machine's
    (``notifications.delivery.DeliveryRow``): they change the instance only, so the rules
    are testable without a database; the machine writes them with guarded UPDATEs.

    Once an email is done (sent, failed for good or dropped) its content keeps no live credential:
    every signed link in it is redacted (``redact_credentials``). Until then the row needs
    its links to send them; the admin shows even those redacted.
    """

    DUE_FIELD = "send_after"
    Status = EmailStatus  # type: ignore[assignment]  # DeliveryStatus's values, and dropped

    status = models.CharField(
        max_length=10, choices=EmailStatus.choices, default=EmailStatus.PENDING
    )
    to = models.EmailField()
    # Empty in a row queued unrendered: read them through rendered().
    subject = models.CharField(max_length=SUBJECT_MAX_LENGTH)
    body_text = models.TextField()
    body_html = models.TextField()
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
    # attempts, last_error, sent_at, claimed_at: DeliveryRow's.
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    send_after = models.DateTimeField(
        default=timezone.now, help_text="Not sent before this time (backoff after errors)."
    )
    headers = models.JSONField(
        default=dict,
        blank=True,
        help_text="Extra message headers (name -> value), e.g. List-Unsubscribe.",
    )
    send_check = models.JSONField(
        null=True,
        blank=True,
        editable=False,
        help_text="Asked when the email is due: send, wait longer or drop it "
        "(notifications.send_checks); null: always sent.",
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
        return f"{redact_tokens(self.rendered().subject)} → {self.to} ({self.status})"

    # The context this instance's subject and bodies were rendered from (None: not yet).
    _rendered_from = None

    def rendered(self) -> "OutboundEmail":
        """This email with its subject and bodies filled in; returns ``self``.

        A row queued unrendered (``context`` set) holds them empty: they are rendered from
        ``context`` in ``language`` on this instance, not the row (which keeps ``context``
        until the email is done), once per context. Raises what rendering raises (a
        template removed since the email was queued).
        """
        context = self.context
        if context is not None and self._rendered_from is not context:
            self.subject, self.body_text, self.body_html = render_email(
                self.template,
                context_from_json(context, self.language or None),
                language=self.language or None,
            )
            self._rendered_from = context
        return self

    @classmethod
    def stuck_after(cls) -> timedelta:
        return SENDING_TIMEOUT

    @property
    def is_done(self) -> bool:
        return super().is_done or self.status == EmailStatus.DROPPED

    def record_withdrawn(self, reason: str) -> None:
        """Drop the email unsent (its send check no longer wants it): ``reason`` in
        ``last_error``. Its content is redacted as a sent one's is, but not rendered first:
        an email queued unrendered keeps an empty subject and bodies (composing a turn
        email nobody reads would cost a worker what it cost the move, for nothing)."""
        self.status = EmailStatus.DROPPED
        self.last_error = reason
        self.context = None
        self.finished()

    def log_label(self) -> str:
        return f"Email {self.pk}"

    def finished(self) -> None:
        """Sent or failed for good: the links in the email are redacted now."""
        self.redact_credentials()

    def outcome_fields(self) -> list[str]:
        """A done email's outcome also writes its redacted content (no credential stays)."""
        content = list(self.CONTENT_FIELDS) if self.is_done else []
        return super().outcome_fields() + content

    def redact_credentials(self) -> None:
        """Replace every live credential in ``CONTENT_FIELDS`` by ``[redacted]``; idempotent.

        For an email that is done: its links reached the player or never will, and a row
        keeping them would let whoever reads the table (a moderator, a backup) log in as the
        player or answer their invitation. Only the instance changes; the caller saves.
        """
        try:
            self.rendered()
        except Exception:
            # It cannot be rendered (e.g. its template is gone since it was queued), so it
            # was never sent: it keeps no content at all, and last_error says why.
            self.subject = self.body_text = self.body_html = ""
        self.subject = redact_tokens(self.subject)
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
        outcomes: dict[str, DeliveryAttempt.Outcome] = {
            OutboundEmail.Status.SENT: cls.Outcome.SENT,
            OutboundEmail.Status.FAILED: cls.Outcome.FAILED,
        }
        outcome = outcomes.get(email.status, cls.Outcome.RETRYING)
        error = "" if outcome == cls.Outcome.SENT else email.last_error
        return cls(email=email, at=at, outcome=outcome, error=error)
