"""The audit log (one row per moderator action, with its reason) and players' reports."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class AuditAction(models.TextChoices):
    """What a moderator did. Stored as plain text (no ``choices`` on the column), so a new
    kind of action needs a member here, not a migration."""

    EXTEND_DEADLINE = "extend_deadline", "Extend the deadline"
    FORCE_AUTOMATIC_MOVE = "force_automatic_move", "Play the automatic move"
    ABORT_GAME = "abort_game", "Abort the game"
    SUSPEND_USER = "suspend_user", "Suspend the player"
    UNSUSPEND_USER = "unsuspend_user", "Unsuspend the player"
    RESOLVE_REPORT = "resolve_report", "Resolve a report"
    RESEND_EMAIL = "resend_email", "Resend an email"
    REPLACE_WITH_BOT = "replace_with_bot", "Hand a player's seat to a bot"
    HIDE_MESSAGE = "hide_message", "Hide a table talk message"
    UNHIDE_MESSAGE = "unhide_message", "Show a hidden table talk message again"


class AuditEntry(models.Model):
    """One moderator action: who, when, what, on which game and/or player, and why.

    Written only by ``moderation.audit.record``, in the transaction of the action itself,
    so an action that rolled back leaves no entry and one that happened always has one.
    Never changed or deleted afterwards: the admin offers neither, not even to
    superusers, and the foreign keys protect the rows they point to.
    """

    at = models.DateTimeField(default=timezone.now, db_index=True)
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="audit_entries_made"
    )
    action = models.CharField(max_length=40)
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_entries",
    )
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_entries_about",
    )
    reason = models.TextField()
    extra = models.JSONField(
        default=dict, blank=True, help_text="Details of the action, e.g. hours, version seen."
    )

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = "audit entries"
        constraints = [
            # The reason is the point of the log; record() refuses a blank one first.
            models.CheckConstraint(condition=~models.Q(reason=""), name="audit_reason_given"),
        ]

    def __str__(self) -> str:
        return f"{self.action} by {self.moderator_id} at {self.at:%Y-%m-%d %H:%M} UTC"

    @property
    def action_label(self) -> str:
        try:
            return AuditAction(self.action).label
        except ValueError:
            return self.action


class ReportCategory(models.TextChoices):
    ABUSE = "abuse", "Abuse"
    CHEATING = "cheating", "Cheating"
    SPAM = "spam", "Spam"
    OTHER = "other", "Other"


class Report(models.Model):
    """A player's report about a game they play in, or about another player in it.

    Filed through ``POST /api/reports/`` (``moderation.actions.do_file_report``); a
    moderator resolves it with a note (``do_resolve_report``), which goes to the audit
    log, and the reporter is told it was handled, never how.
    """

    class Status(models.TextChoices):
        # Alphabetical order is queue order: "open" sorts before "resolved".
        OPEN = "open", "Open"
        RESOLVED = "resolved", "Resolved"

    MAX_TEXT_LENGTH = 2000

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_filed"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="reports")
    reported_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="reports_against",
        help_text="The player reported, if the report is about one player.",
    )
    category = models.CharField(max_length=16, choices=ReportCategory.choices)
    text = models.TextField(max_length=MAX_TEXT_LENGTH)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reports_resolved",
    )

    class Meta:
        ordering = ["status", "-created_at"]  # the queue: open first, newest first
        indexes = [
            # The moderators' queue and the dashboard's count read open reports.
            models.Index(
                fields=["created_at"], name="report_open", condition=models.Q(status="open")
            ),
        ]

    def __str__(self) -> str:
        return f"report {self.id} ({self.category}, {self.status})"
