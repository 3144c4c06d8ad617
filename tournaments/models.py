"""The models of tournaments: a tournament, its entrants, its rounds and their pairings.

Written only by ``tournaments.actions`` (docs/tournaments.md).
"""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import pgettext_lazy

from core import rows


class TournamentFormat(models.TextChoices):
    SWISS = "swiss", pgettext_lazy("tournament format", "Swiss")
    ELIMINATION = "elimination", pgettext_lazy("tournament format", "single elimination")


class TournamentStatus(models.TextChoices):
    SIGNUP = "signup", pgettext_lazy("tournament status", "signing up")
    RUNNING = "running", pgettext_lazy("tournament status", "under way")
    FINISHED = "finished", pgettext_lazy("tournament status", "finished")
    CANCELLED = "cancelled", pgettext_lazy("tournament status", "cancelled")


class SignUp(models.TextChoices):
    OPEN = "open", pgettext_lazy("tournament sign-up", "open to anyone")
    INVITATION = "invitation", pgettext_lazy("tournament sign-up", "by invitation only")


class Tournament(models.Model):
    """One tournament: what is played and how, who may sign up until when, where it stands.

    ``starts_at`` is when the start sweep pairs round 1 (it claims the row with a guarded
    UPDATE from ``signup`` to ``running``); each round then has ``round_days`` to finish.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=80)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organised_tournaments"
    )
    game = models.CharField(max_length=30, help_text="The kind of game, by catalogue name.")
    format = models.CharField(max_length=12, choices=TournamentFormat.choices)
    # Swiss: the rounds asked for (fewer are played when everyone has met everyone).
    # Elimination: as many as the bracket needs, written when it starts.
    rounds = models.PositiveSmallIntegerField(default=5)
    turn_hours = models.PositiveSmallIntegerField(default=72)
    # The games' clock as ``games.clocks.clean_clock`` takes it; None: hours per turn.
    clock = models.JSONField(null=True, blank=True)
    rated = models.BooleanField(default=True)
    blind = models.BooleanField(default=False)
    signup = models.CharField(max_length=12, choices=SignUp.choices, default=SignUp.OPEN)
    max_entrants = models.PositiveSmallIntegerField(default=64)
    # The start sweep's work: the partial index below serves its query.
    starts_at = models.DateTimeField()
    round_days = models.PositiveSmallIntegerField(default=14)
    status = models.CharField(
        max_length=12, choices=TournamentStatus.choices, default=TournamentStatus.SIGNUP
    )
    current_round = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["starts_at", "created_at"]
        indexes = [
            # The start sweep: tournaments still signing up whose start time has come.
            models.Index(
                fields=["starts_at"],
                name="tournament_signup_starts",
                condition=models.Q(status="signup"),
            ),
            models.Index(fields=["status", "starts_at"], name="tournament_status_starts"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"


class Entrant(models.Model):
    """A person in a tournament: invited (``invited_at``), signed up (``signed_up_at``),
    withdrawn (``withdrawn_at``: out of every later round). ``seed`` and ``seed_rating``
    are written when the tournament starts: their rating at the game then, and their
    place by it (1 the highest). An invitation's token is kept only as its SHA-256."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    invited_at = models.DateTimeField(null=True, blank=True)
    token_hash = models.CharField(max_length=64, blank=True, default="", db_index=True)
    declined_at = models.DateTimeField(null=True, blank=True)
    signed_up_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    seed = models.PositiveSmallIntegerField(null=True, blank=True)
    seed_rating = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["seed", "signed_up_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="tournament_entrant_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id}"

    @property
    def is_in(self) -> bool:
        """Signed up and not withdrawn: plays the next round."""
        return self.signed_up_at is not None and self.withdrawn_at is None

    @staticmethod
    def hash_token(token: str) -> str:
        return rows.hash_token(token)


class Round(models.Model):
    """One round: paired when it starts; ``ended_at`` is set once, by whichever closes it
    first (its last game's end or its ``deadline``: a guarded UPDATE claims it)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    deadline = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournament_round_once"),
        ]
        indexes = [
            # The deadline sweep: rounds still open whose deadline has passed.
            models.Index(
                fields=["deadline"], name="round_open_deadline", condition=models.Q(ended_at=None)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.number}"


class Result(models.TextChoices):
    PENDING = "", pgettext_lazy("pairing result", "playing")
    FIRST = "first", pgettext_lazy("pairing result", "first player won")
    SECOND = "second", pgettext_lazy("pairing result", "second player won")
    DRAW = "draw", pgettext_lazy("pairing result", "draw")
    NONE = "none", pgettext_lazy("pairing result", "no result")
    BYE = "bye", pgettext_lazy("pairing result", "bye")


class DecidedBy(models.TextChoices):
    GAME = "game", pgettext_lazy("decided by", "the game")
    DEADLINE = "deadline", pgettext_lazy("decided by", "the round's deadline")
    BYE = "bye", pgettext_lazy("decided by", "a bye")


class Pairing(models.Model):
    """Two entrants of a round and their game (``first`` holds seat 0), or one entrant's
    bye (``second`` None, no game). ``result`` is written once (a guarded UPDATE from
    pending), by the game's end or the round's deadline; ``advances`` is the elimination's
    entrant going through (None: nobody, both left). ``board`` orders a round's pairings:
    in elimination, the place in the bracket."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    board = models.PositiveSmallIntegerField()
    first = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(
        Entrant, on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    game = models.OneToOneField(
        "games.Game",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_pairing",
    )
    result = models.CharField(max_length=8, choices=Result.choices, blank=True, default="")
    decided_by = models.CharField(max_length=10, choices=DecidedBy.choices, blank=True, default="")
    advances = models.ForeignKey(
        Entrant, on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )

    class Meta:
        ordering = ["round__number", "board"]
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="tournament_pairing_board"),
        ]

    def __str__(self) -> str:
        return f"{self.round} board {self.board}"

    @property
    def is_bye(self) -> bool:
        return self.second_id is None

    def first_points(self) -> float | None:
        """``first``'s points (win or bye 1, draw ½, loss or no result 0); None pending."""
        return {
            Result.FIRST: 1.0,
            Result.BYE: 1.0,
            Result.DRAW: 0.5,
            Result.SECOND: 0.0,
            Result.NONE: 0.0,
        }.get(Result(self.result))

    def second_points(self) -> float | None:
        if self.result == Result.NONE:
            return 0.0
        points = self.first_points()
        return None if points is None or self.is_bye else 1.0 - points
