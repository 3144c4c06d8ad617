"""Quick match: a player's seek ("find me a game") and what became of it."""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import pgettext_lazy


class SeekStatus(models.TextChoices):
    WAITING = "waiting", pgettext_lazy("seek status", "waiting")
    MATCHED = "matched", pgettext_lazy("seek status", "matched")
    EXPIRED = "expired", pgettext_lazy("seek status", "expired")
    WITHDRAWN = "withdrawn", pgettext_lazy("seek status", "withdrawn")


class Seek(models.Model):
    """One seek: the game a player would play with strangers and the terms they accept.

    Written only by ``quickmatch.actions``. A seek waits until the pairing worker starts a
    game with it (``matched``, ``game`` set), it expires (``expires_at``), or its player
    withdraws it or posts another for the same game (``withdrawn``). ``rating`` is the
    player's displayed rating at that game when they posted (ratings.models.display_rating),
    the centre of the window they asked for (``rating_range`` either side)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seeks"
    )
    kind = models.CharField(max_length=30, help_text="The game, by its catalogue name.")
    players = models.PositiveSmallIntegerField(help_text="Players at the table, the seeker too.")
    turn_hours_min = models.PositiveSmallIntegerField()
    turn_hours_max = models.PositiveSmallIntegerField()
    rated = models.BooleanField()
    rating = models.PositiveIntegerField(help_text="The seeker's displayed rating when posted.")
    rating_range = models.PositiveIntegerField(help_text="Displayed points either side.")
    status = models.CharField(max_length=10, choices=SeekStatus.choices, default=SeekStatus.WAITING)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seeks",
        help_text="The game this seek was matched into.",
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One waiting seek per person and game: posting another replaces it
            # (quickmatch.actions.do_post_seek); this makes two at once impossible.
            models.UniqueConstraint(
                fields=["user", "kind"],
                condition=models.Q(status="waiting"),
                name="seek_one_waiting_per_game",
            ),
        ]
        indexes = [
            # The pairing worker's and the expiry sweep's reads: the waiting seeks only.
            models.Index(
                fields=["expires_at"],
                condition=models.Q(status="waiting"),
                name="seek_waiting_expiry",
            ),
            # A player's seeks, newest first (the page, the API, the hourly limit).
            models.Index(fields=["user", "-created_at"], name="seek_user_created"),
        ]

    def __str__(self) -> str:
        return f"seek {self.id} by {self.user_id} ({self.status})"
