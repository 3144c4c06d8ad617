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


class TalkEmail(models.Model):
    """The table talk email of one player at one game: when the last one went, and what
    waits for the next (``talk.emails``).

    A message by another player sets ``pending_since`` (its time, if nothing was waiting)
    and ``due_at`` (now, or an hour after the last email: at most one an hour); the sweep
    claims due rows, emails the messages since ``pending_since`` and clears both.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    last_sent_at = models.DateTimeField(null=True, blank=True)
    pending_since = models.DateTimeField(
        null=True, blank=True, help_text="The first message not emailed yet; null: none."
    )
    due_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="talk_email_once_per_player"),
        ]
        indexes = [
            # The sweep (talk.emails.send_due_talk_emails) reads the due rows every minute;
            # only rows with talk waiting are ever due, so only they are indexed.
            models.Index(
                fields=["due_at"], name="talk_email_due", condition=models.Q(due_at__isnull=False)
            ),
        ]

    def __str__(self) -> str:
        return f"table talk email of {self.user_id} at {self.game_id}"
