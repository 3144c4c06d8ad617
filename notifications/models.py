"""The email outbox: one row per email, written with the change that causes it, sent after."""

from datetime import datetime, timedelta

from django.db import models
from django.utils import timezone

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


class OutboundEmail(models.Model):
    """An email to one address, rendered when queued; its status records every send outcome.

    Life cycle: ``pending`` (due at ``send_after``) → ``sending`` (claimed by one worker
    at ``claimed_at``) → ``sent``, or back to ``pending`` with a later ``send_after`` after a
    transient error, or ``failed`` after a permanent error or the last allowed attempt.
    The ``record_*`` methods change state on the instance only, so the rules are testable
    without a database; the outbox module writes them with guarded UPDATEs.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        SENDING = "sending", "Sending"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"  # permanent error, or retries exhausted

    to = models.EmailField()
    subject = models.CharField(max_length=255)
    body_text = models.TextField()
    body_html = models.TextField()
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

    class Meta:
        verbose_name = "outbound email"
        indexes = [
            # send_due_emails (the every-minute sweep) looks for due pending rows; sent
            # rows pile up forever, so index only the few that are still waiting.
            models.Index(
                fields=["send_after"],
                condition=models.Q(status="pending"),
                name="outbox_pending_due_idx",
            ),
            # send_due_emails also returns rows stuck in "sending" to pending.
            models.Index(
                fields=["claimed_at"],
                condition=models.Q(status="sending"),
                name="outbox_sending_claimed_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.subject} → {self.to} ({self.status})"

    def is_due(self, now: datetime) -> bool:
        return self.status == self.Status.PENDING and self.send_after <= now

    def is_stuck(self, now: datetime) -> bool:
        """Claimed so long ago that the worker holding it must have died."""
        return (
            self.status == self.Status.SENDING
            and self.claimed_at is not None
            and self.claimed_at < now - SENDING_TIMEOUT
        )

    def record_sent(self, now: datetime) -> None:
        self.status = self.Status.SENT
        self.attempts += 1
        self.sent_at = now
        self.last_error = ""

    def record_failure(
        self, error: str, now: datetime, *, permanent: bool, max_attempts: int
    ) -> None:
        """Count a failed attempt: retry later after a transient error, else give up.

        Gives up (``failed``) on a permanent error or when this was attempt ``max_attempts``.
        """
        self.attempts += 1
        self.last_error = error[:MAX_ERROR_LENGTH]
        if permanent or self.attempts >= max_attempts:
            self.status = self.Status.FAILED
        else:
            self.status = self.Status.PENDING
            self.send_after = now + retry_delay(self.attempts)
