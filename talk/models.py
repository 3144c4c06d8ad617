"""Table talk: a message written at a game's table, and a player's report of one."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models import Game


class Message(models.Model):
    """One message of a game's table talk, written by the player at ``seat``.

    Plain text, 1-``MAX_LENGTH`` characters, stored trimmed (``talk.actions.post_message``
    is the only writer). A moderator may hide it (``do_hide_message``, with a reason in
    the audit log): players then see that there was a message, not its text.
    """

    MAX_LENGTH = 1000

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="messages")
    seat = models.PositiveSmallIntegerField(help_text="The writer's seat in the game.")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="table_messages"
    )
    text = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)
    hidden_at = models.DateTimeField(null=True, blank=True, editable=False)
    hidden_reason = models.TextField(blank=True, editable=False)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        editable=False,
        related_name="table_messages_hidden",
    )

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            # The talk of one game, oldest first (GET /api/games/{id}/messages/).
            models.Index(fields=["game", "created_at", "id"], name="message_game_time"),
            # The rate limit counts one player's messages in one game over the last hour.
            models.Index(fields=["game", "author", "created_at"], name="message_rate"),
        ]

    def __str__(self) -> str:
        return f"message {self.pk} at {self.game_id} by seat {self.seat}"

    @property
    def is_hidden(self) -> bool:
        return self.hidden_at is not None


class MessageReport(models.Model):
    """A player's report of a message (abuse, spam) for the moderators; one per player
    and message. Resolved when a moderator has looked at it (hidden the message or not)."""

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="message_reports"
    )
    reason = models.TextField(blank=True, help_text="What the reporter says is wrong with it.")
    created_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["message", "reporter"], name="message_report_once_per_reporter"
            ),
        ]

    def __str__(self) -> str:
        return f"report of message {self.message_id} by {self.reporter_id}"
