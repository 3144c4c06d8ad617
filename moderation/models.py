"""Players' reports to the moderators (the audit log is the ``audit`` app's)."""

from django.conf import settings
from django.db import models
from django.utils import timezone


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
