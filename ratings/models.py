"""Ratings: one per player and game kind, and its change per rated game (docs/ratings.md).

Written only by ``ratings.service`` (the update when a game finishes, and the rebuild).
``mu`` and ``sigma`` are the model's skill estimate and its uncertainty (``ratings.skill``);
their ordinal, mu - 3 sigma, is the skill the model is sure of. Players read ``display``,
the ordinal on a familiar scale (1500 for a new player, never below 0), provisional under
``PROVISIONAL_GAMES`` (docs/ratings.md).
"""

from django.conf import settings
from django.db import models

# Fewer rated games than this: the rating is provisional, and off the leaderboard.
PROVISIONAL_GAMES = 5


# The scale players read: a new player (ordinal 0) is at DISPLAY_CENTRE, each point of the
# ordinal is DISPLAY_STEP; the ordinal itself goes below 0 after a few early losses, and
# "Rating -4" reads as an error, so the shown number is a chess-like one (docs/ratings.md).
DISPLAY_CENTRE = 1500
DISPLAY_STEP = 20


def ordinal(mu: float, sigma: float) -> float:
    """The model's ordinal: mu - 3 sigma, the skill it is sure of (a new player's is 0)."""
    return mu - 3 * sigma


def ordinal_rating(mu: float, sigma: float) -> int:
    """The ordinal, rounded: the API's ``rating`` (it may be negative)."""
    return round(ordinal(mu, sigma))


def display_rating(mu: float, sigma: float) -> int:
    """The number players see: ``DISPLAY_CENTRE + DISPLAY_STEP * ordinal``, rounded, never
    below 0. It grows as a player wins and as the model grows sure of them."""
    return max(0, round(DISPLAY_CENTRE + DISPLAY_STEP * ordinal(mu, sigma)))


class Rating(models.Model):
    """A player's rating at one game kind (``Game.game``: piratz, rattenscharf)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    kind = models.CharField(max_length=30, help_text="The game, by its catalogue name.")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0, help_text="Rated games played.")
    updated_at = models.DateTimeField(help_text="When the last rated game finished.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="rating_one_per_kind"),
        ]
        indexes = [
            # The leaderboard: one kind's established players.
            models.Index(fields=["kind", "games"], name="rating_kind_games"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.kind}: {self.display}"

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def rating(self) -> int:
        return ordinal_rating(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


class RatingChange(models.Model):
    """What one rated game did to one player's rating: the history, and the proof that a
    game was rated (once: one row per game and player)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    kind = models.CharField(max_length=30)
    # 1 for the winners (who share it); resigned seats last.
    rank = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField(help_text="How many played the game.")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    # The player's rated games after this one.
    games = models.PositiveIntegerField()
    at = models.DateTimeField(help_text="When the game finished.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="rating_change_once"),
        ]
        indexes = [models.Index(fields=["user", "kind", "at"], name="rating_change_history")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.game_id}: rank {self.rank}"

    @property
    def before(self) -> int:
        return display_rating(self.mu_before, self.sigma_before)

    @property
    def after(self) -> int:
        return display_rating(self.mu_after, self.sigma_after)

    @property
    def rating_before(self) -> int:
        return ordinal_rating(self.mu_before, self.sigma_before)

    @property
    def rating_after(self) -> int:
        return ordinal_rating(self.mu_after, self.sigma_after)
