"""Leagues: an organiser's season of games, its members and its scheduled games."""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import pgettext_lazy

from core import rows


class LeagueFormat(models.TextChoices):
    ROUND_ROBIN = "round_robin", pgettext_lazy("league format", "round robin, two players a game")
    GROUPS = "groups", pgettext_lazy("league format", "groups of 3-4")


class LeagueStatus(models.TextChoices):
    INVITED = "invited", pgettext_lazy("league status", "waiting for acceptances")
    ACTIVE = "active", pgettext_lazy("league status", "under way")
    FINISHED = "finished", pgettext_lazy("league status", "finished")
    CANCELLED = "cancelled", pgettext_lazy("league status", "cancelled")


class League(models.Model):
    """One league: who organises it, what is played and how, and where it stands."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=80)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organised_leagues"
    )
    game = models.CharField(max_length=30, help_text="The kind of game, by catalogue name.")
    blind = models.BooleanField(default=False)
    turn_hours = models.PositiveSmallIntegerField(default=72)
    format = models.CharField(max_length=12, choices=LeagueFormat.choices)
    # Groups: the size most groups have (3 or 4; the others have the other size).
    group_size = models.PositiveSmallIntegerField(default=2)
    # No player has more than this many of the league's games running at once.
    max_running = models.PositiveSmallIntegerField(default=2)
    status = models.CharField(
        max_length=12, choices=LeagueStatus.choices, default=LeagueStatus.INVITED, db_index=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"


class LeagueMember(models.Model):
    """A player of a league: invited, accepted, declined or left.

    The invitation link's token is kept only as its SHA-256 (``token_hash``): the row
    holds no live credential."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_memberships"
    )
    position = models.PositiveSmallIntegerField()
    token_hash = models.CharField(max_length=64, blank=True, default="", db_index=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    declined_at = models.DateTimeField(null=True, blank=True)
    left_at = models.DateTimeField(null=True, blank=True)
    weekly_standings = models.BooleanField(default=True)
    # The ISO week (``2026-W05``) of the last weekly standings email: one a week.
    standings_week = models.CharField(max_length=8, blank=True, default="")

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="league_member_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.league_id}"

    @staticmethod
    def hash_token(token: str) -> str:
        return rows.hash_token(token)


class LeagueGameStatus(models.TextChoices):
    SCHEDULED = "scheduled", pgettext_lazy("league game", "scheduled")
    STARTED = "started", pgettext_lazy("league game", "started")
    CANCELLED = "cancelled", pgettext_lazy("league game", "cancelled")


class LeagueGame(models.Model):
    """One game of a league's schedule: its players (user ids, seat order), and once it
    has started, its game."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField()
    round = models.PositiveSmallIntegerField()
    players = models.JSONField(help_text="User ids in seat order.")
    status = models.CharField(
        max_length=12, choices=LeagueGameStatus.choices, default=LeagueGameStatus.SCHEDULED
    )
    game = models.OneToOneField(
        "games.Game",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="league_game",
    )

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="league_game_number"),
        ]

    def __str__(self) -> str:
        return f"{self.league_id} #{self.number}"
