"""The audit log: one row per moderator action, with its reason.

The log was ``moderation``'s until it became its own app, below everything that writes
it: ``moderation``'s migration 0002 renamed its table to this app's name, rows and ids kept.
"""

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

    Written only by ``audit.log.record``, in the transaction of the action itself,
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
