"""The models of lobby: an open game, the seats a game leaves for anyone to take.

Written only by ``lobby.actions``; the game itself (its seats, its start) only by
``games.actions.open_seats``.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import pgettext_lazy

from games.models import Game


class Closed(models.TextChoices):
    """Why an open game left the lobby (``OpenGame.closed``)."""

    OPEN = "", pgettext_lazy("open game", "open")
    STARTED = "started", pgettext_lazy("open game", "every seat taken: started")
    EXPIRED = "expired", pgettext_lazy("open game", "not every seat taken in time")
    WITHDRAWN = "withdrawn", pgettext_lazy("open game", "withdrawn by its host")
    # Ended by something else before it filled (a moderator, a player's account deletion).
    CANCELLED = "cancelled", pgettext_lazy("open game", "cancelled")


class OpenGame(models.Model):
    """A game in the lobby: ``seats`` players in all, the host's and any bots' seats taken,
    the rest open to whoever meets the requirements (a ``language``, a range of the
    displayed rating at the game) until ``expires_at``.

    The row stays after the game leaves the lobby (``closed``, ``closed_at``): the joins of
    the last hour are counted from the games' seats, and the row says how it ended.
    """

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="open_game"
    )
    seats = models.PositiveSmallIntegerField(help_text="Players in all, the host included.")
    # A language code of settings.LANGUAGES: only people reading it may join; "" anyone.
    language = models.CharField(max_length=8, blank=True, default="")
    # The range of the rating the pages show (ratings.models.display_rating) at this game a
    # person must have to join, both ends included; null: no bound.
    rating_min = models.PositiveIntegerField(null=True, blank=True)
    rating_max = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    closed = models.CharField(max_length=10, choices=Closed.choices, blank=True, default="")
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # The lobby lists, and the expiry sweep claims, the games still open.
            models.Index(
                fields=["expires_at"], name="open_game_open_expiry", condition=Q(closed="")
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(rating_min=None)
                | Q(rating_max=None)
                | Q(rating_min__lte=F("rating_max")),
                name="open_game_rating_range",
            ),
        ]

    def __str__(self) -> str:
        return f"open game {self.game_id} ({self.closed or 'open'})"

    @property
    def is_open(self) -> bool:
        return self.closed == Closed.OPEN


class LeftSeat(models.Model):
    """A seat a person took at an open game and gave up before it started: the seat itself
    is gone (open again), so this row keeps the join counted against
    ``LOBBY_JOINS_PER_HOUR`` (joining and leaving over and over is no way around it)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="left_seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="left_open_seats"
    )
    joined_at = models.DateTimeField()
    left_at = models.DateTimeField()

    class Meta:
        indexes = [
            # The joins-per-hour count reads a person's recent joins.
            models.Index(fields=["user", "joined_at"], name="left_seat_user_joined"),
        ]

    def __str__(self) -> str:
        return f"seat left by user {self.user_id} at game {self.game_id}"
