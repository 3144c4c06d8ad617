"""Game records: the game row with its secret engine state, seats and the move log.

These models hold data and derived questions about it; every change to a game goes
through ``games.actions`` (which locks the row, checks the version and logs the move).
"""

import copy
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import pgettext_lazy

from core import rows
from games.catalogue import rules_for
from games.seat_names import seat_name


# The labels are what players read (get_status_display, get_end_reason_display: the home
# page, the table, the invitation page), so they are translated; the values never are.
class GameStatus(models.TextChoices):
    INVITED = "invited", pgettext_lazy("game status", "waiting for acceptances")
    ACTIVE = "active", pgettext_lazy("game status", "active")
    FINISHED = "finished", pgettext_lazy("game status", "finished")
    CANCELLED = "cancelled", pgettext_lazy("game status", "cancelled")
    ABORTED = "aborted", pgettext_lazy("game status", "aborted")


class EndReason(models.TextChoices):
    NONE = "", "—"
    DECLINED = "declined", pgettext_lazy("why a game ended", "an invitee declined")
    EXPIRED = "expired", pgettext_lazy("why a game ended", "not accepted in time")
    ABANDONED = (
        "abandoned",
        pgettext_lazy("why a game ended", "every move of a round was automatic"),
    )
    MODERATOR = "moderator", pgettext_lazy("why a game ended", "aborted by a moderator")
    RESIGNED = "resigned", pgettext_lazy("why a game ended", "a player resigned")
    # A player deleted their account (games.actions.erasure): their invitation can never
    # be answered, or no other person is left to play.
    ERASED = "erased", pgettext_lazy("why a game ended", "a player deleted their account")


def turn_hours(hours: float) -> timedelta:
    """``hours`` of a turn's clock (turn lengths, reminder leads, extensions) as a duration.

    An hour is ``TURN_HOUR_SECONDS`` long: 3600 seconds, or less on the fast clock of a
    local run (DEBUG only, docs/testing.md), so that a deadline passes in minutes.
    """
    return timedelta(seconds=hours * settings.TURN_HOUR_SECONDS)


def turn_delay(seconds: float) -> timedelta:
    """A delay tied to turns (the turn email's hold while its player is at the table, a bot
    turn's grace), set in ``seconds`` of a normal clock, on the turn clock: shorter by as
    much as ``turn_hours`` on the fast clock, so it never outlasts the turn it serves."""
    return timedelta(seconds=seconds * settings.TURN_HOUR_SECONDS / 3600)


# The longest reason a host gives for a pause (games.actions.together).
PAUSE_REASON_MAX_LENGTH = 500


class ClockKind(models.TextChoices):
    """How a game's turns are timed (``games.clocks``, ``games.deadlines``)."""

    PER_TURN = "per_turn", pgettext_lazy("game clock", "hours per turn")
    BANK = "bank", pgettext_lazy("game clock", "time bank")
    DAILY = "daily", pgettext_lazy("game clock", "daily deadline")


class Game(models.Model):
    """One game of one rules module, from invitation to its end.

    ``state`` is the engine's full ``dump`` and is SECRET (it holds the draw order):
    it must only ever leave the server through the engine's ``view``.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # No default: generic code never names a game; whoever makes a game says which.
    game = models.CharField(
        max_length=30,
        verbose_name="kind of game",
        help_text="Which game is played, by its catalogue name (piratz, rattenscharf).",
    )
    status = models.CharField(
        max_length=12, choices=GameStatus.choices, default=GameStatus.INVITED, db_index=True
    )
    end_reason = models.CharField(max_length=12, choices=EndReason.choices, blank=True, default="")
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_games"
    )
    turn_hours = models.PositiveSmallIntegerField(default=72)
    # The clock (games.clocks): ``turn_hours`` per turn; or a time bank per seat
    # (``Seat.bank_seconds``) that starts at ``bank_hours`` and gains ``increment_hours``
    # after each turn, up to ``cap_hours``; or a daily deadline at ``daily_hour`` o'clock
    # in ``daily_zone`` (the host's zone when the game was created).
    clock = models.CharField(max_length=10, choices=ClockKind.choices, default=ClockKind.PER_TURN)
    bank_hours = models.PositiveSmallIntegerField(null=True, blank=True)
    increment_hours = models.PositiveSmallIntegerField(null=True, blank=True)
    cap_hours = models.PositiveSmallIntegerField(null=True, blank=True)
    daily_hour = models.PositiveSmallIntegerField(null=True, blank=True)
    daily_zone = models.CharField(max_length=64, blank=True, default="")
    blind = models.BooleanField(default=False)
    # Bots at the table (games.bots): hand the seat of a player who keeps timing out, or
    # whose absence would abandon the game (P25), to a stand-in bot instead.
    stand_in_bots = models.BooleanField(default=False)
    # Rated (the ratings app, docs/ratings.md): when the game finishes, its players'
    # ratings move. On unless the host chose unrated; never with a bot's own seat.
    rated = models.BooleanField(default=True)
    # Public (the host's choice; a lobby game is public unless its host says otherwise):
    # anyone, signed in or not, may watch it as a spectator sees it (the engine's view
    # for nobody) and find it among the public games.
    public = models.BooleanField(default=False)
    # Table talk open to spectators (the host's choice, told at the table): watchers of a
    # public game read the players' messages too. Never written by a spectator.
    talk_public = models.BooleanField(default=False)

    state = models.JSONField(null=True, blank=True, editable=False)
    # A checkable shuffle (games.fairness): the server seed is SECRET like ``state`` until
    # the game has ended, then published; its commitment is public from creation. Both
    # are empty for games created before shuffles were checkable.
    server_seed = models.CharField(max_length=64, blank=True, default="", editable=False)
    seed_commitment = models.CharField(max_length=64, blank=True, default="", editable=False)
    version = models.PositiveIntegerField(default=0)
    current_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    round = models.PositiveSmallIntegerField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    # The turn under way (see games.deadlines): when it began, the time moderators added
    # to it, and its reminders: when the next one is due and the leads (hours) sent so far.
    turn_started_at = models.DateTimeField(null=True, blank=True)
    turn_extension = models.DurationField(default=timedelta(0))
    next_reminder_at = models.DateTimeField(null=True, blank=True)
    reminder_leads_sent = models.JSONField(default=list, blank=True)
    result = models.JSONField(null=True, blank=True, editable=False)
    # Denormalised from the webhooks app: "this game has at least one enabled webhook".
    # Every move reads it from the row it has locked (games.actions.common.lock_game), so
    # a game without webhooks costs a move nothing more. Kept by one writer,
    # webhooks.delivery.refresh_has_webhooks, in the transaction of every webhook change
    # and under this row's lock; nothing else writes it.
    has_webhooks = models.BooleanField(
        default=False,
        editable=False,
        help_text="At least one enabled webhook (kept by webhooks.delivery.refresh_has_webhooks).",
    )

    # A substitute has taken a seat over (games.actions.substitutes, its one writer, under
    # the row's lock): only then does the table read the seat changes to say who took
    # over from whom, so every other table costs no query for it.
    has_substitutes = models.BooleanField(
        default=False,
        editable=False,
        help_text="A substitute took a seat over (kept by games.actions.substitutes).",
    )

    # The host's pause (games.actions.together): while ``paused_at`` is set the clock stands
    # still (no deadline, no reminders, no timeouts) and moves are still taken; the game
    # resumes by itself at ``paused_until`` (the resume sweep), or when the host says so.
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_until = models.DateTimeField(null=True, blank=True)
    pause_reason = models.CharField(max_length=PAUSE_REASON_MAX_LENGTH, blank=True, default="")
    # The start (``turn_started_at``) of the turn the host extended: once per turn.
    host_extended_turn = models.DateTimeField(null=True, blank=True)
    # The game a player's rematch created (one per game; games.actions.together).
    rematch = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch_of"
    )

    invitation_expires_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # The deadline sweep asks "which active games have a passed deadline?".
            models.Index(
                fields=["deadline"],
                name="game_active_deadline",
                condition=Q(status="active"),
            ),
            # The reminder sweep (games.sweeps.send_due_reminders) asks "which active
            # games owe their current player a reminder by now?".
            models.Index(
                fields=["next_reminder_at"],
                name="game_active_reminder",
                condition=Q(status="active"),
            ),
            # The resume sweep (games.sweeps.resume_due_pauses) asks "which paused games
            # are due to run again?".
            models.Index(
                fields=["paused_until"],
                name="game_active_paused_until",
                condition=Q(status="active"),
            ),
            # The invitation sweep asks "which invited games have expired?".
            models.Index(
                fields=["invitation_expires_at"],
                name="game_invited_expiry",
                condition=Q(status="invited"),
            ),
            # "Which of this player's games wait for them?" (the digest sweep, the game
            # list's ?my_turn, the home page) probes every game a player has a seat in;
            # this small index answers "active, and whose turn?" for each without reading
            # the game row, so a long-time player's finished games cost an index probe
            # each, not a heap page (bench/bigdb.py, docs/scaling.md).
            models.Index(
                fields=["id", "current_seat"],
                name="game_active_current_seat",
                condition=Q(status="active"),
            ),
            # The page of public games (games.watching.public_games) asks "which public
            # games are being played, or ended lately?": a few rows among all the private
            # ones, sorted after. Not on updated_at: a move writes it, and an indexed column
            # that every move writes costs PostgreSQL its heap-only (HOT) update of the row.
            models.Index(
                fields=["status"],
                name="game_public_status",
                condition=Q(public=True),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} {str(self.id)[:8]} ({self.status})"

    @property
    def rules(self):
        """The rules module that plays this game (see ``games.engine_protocol``)."""
        return rules_for(self.game)

    @property
    def is_active(self) -> bool:
        return self.status == GameStatus.ACTIVE

    def invitation_has_expired(self, now: datetime) -> bool:
        """True when the game still waits for acceptances at ``now`` but its time is up.

        Such an invitation can no longer be answered; ``cancel_expired_invitations``
        cancels the game (same ``<=`` boundary, so no moment is both open and swept).
        """
        return (
            self.status == GameStatus.INVITED
            and self.invitation_expires_at is not None
            and self.invitation_expires_at <= now
        )

    def rules_options(self) -> dict:
        """The game's options as its rules take them (``new_game(**options)``): each name
        of the rules' ``OPTIONS`` with this game's value (Piratz: ``blind``)."""
        return {name: getattr(self, name) for name in self.rules.OPTIONS}

    # The engine state last loaded or stored, with the ``state`` value it stands for.
    _engine_state: tuple[dict, object] | None = None

    def load_state(self):
        """The engine state, or None before the game starts.

        Loaded once for each value of ``state``: a move's answer and its turn email read
        the state the move made (``store_state``) instead of checking and rebuilding it
        from JSON again (a Piratz load is ten times its ``apply``). Engine states are
        never changed in place (docs/api.md "The engine's entry points"), and a new value
        of ``state`` (assigned, or read again by ``refresh_from_db``) is loaded anew.
        """
        if self.state is None:
            return None
        if self._engine_state is not None and self._engine_state[0] is self.state:
            return self._engine_state[1]
        state = self.rules.load(self.state)
        self._engine_state = (self.state, state)
        return state

    def store_state(self, state) -> None:
        """Set ``state`` to the engine state ``state`` dumped, and keep ``state`` for
        ``load_state`` (not saved: the caller saves the row)."""
        self.state = self.rules.dump(state)
        self._engine_state = (self.state, state)

    def table_view(self, seat: int | None) -> dict | None:
        """The table as ``seat`` may see it (None: a spectator); None before the game starts.

        The engine's ``view`` strips what this seat may not see. A game that ended without
        a result (aborted by a moderator, or abandoned under rules P25) is still a game
        in progress to the engine, which knows nothing of either; shown here as it ended:
        ``status`` ``"aborted"``, ``current_seat`` and ``phase`` null, no legal actions
        (docs/api.md "Games, moves and versions"). A game that ended by a resignation (P26,
        R37), or whose result leaves resigned seats out of the winners, shows the service's stored
        ``result`` (with ``"resigned"``) as finished. Pages, emails and the API all draw
        the table from this.
        """
        state = self.load_state()
        if state is None:
            return None
        table = self.rules.view(state, seat)
        if self.status == GameStatus.FINISHED and self.result and "resigned" in self.result:
            # The service's result (P26, R37): winners without the resigned seats, and
            # the result of a game a resignation ended, which the engine never finished.
            table.update(status="finished", current_seat=None, legal_actions=[])
            if "phase" in table:
                table["phase"] = None
            table["result"] = copy.deepcopy(self.result)
        if self.status == GameStatus.ABORTED:
            table.update(status="aborted", current_seat=None, legal_actions=[])
            if "phase" in table:  # Piratz's turn phase; Rattenscharf has none
                table["phase"] = None
        return table

    def turn_length(self) -> timedelta:
        """The length of the turn under way's own clock (before vacations, quiet hours and
        extensions): ``turn_hours``; with a time bank, the bank of the seat to move; with a
        daily deadline, from the turn's start to its deadline (a day while it has none)."""
        if self.clock == ClockKind.BANK:
            bank = next(
                (s.bank_seconds for s in self.seats.all() if s.seat == self.current_seat), None
            )
            if bank is not None:
                return timedelta(seconds=bank)
            return turn_hours(self.bank_hours or 0)
        if self.clock == ClockKind.DAILY:
            if self.deadline is not None and self.turn_started_at is not None:
                return self.deadline - self.turn_started_at - self.turn_extension
            return turn_hours(24)
        return turn_hours(self.turn_hours)

    @property
    def is_paused(self) -> bool:
        """The host has paused the clock (P24's timeouts and the reminders wait)."""
        return self.paused_at is not None


class Seat(models.Model):
    """A player's place at a game; ``seat`` is the turn order (0 starts).

    A seat is played by its ``user``, or by a bot of level ``bot`` (games.bots): a bot
    seat has no user; a stand-in bot plays the seat of a user who keeps it (and can take
    it back). Nobody is ever emailed for a seat a bot plays.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="seats",
        null=True,
        blank=True,
        help_text="The player; empty for a bot's own seat.",
    )
    bot = models.CharField(
        max_length=20,
        blank=True,
        default="",
        help_text="The level of the bot playing this seat; empty while its player plays.",
    )
    accepted_at = models.DateTimeField(null=True, blank=True)
    declined_at = models.DateTimeField(null=True, blank=True)
    # The player's contribution to the shuffle key (games.fairness), public once given:
    # "" when they gave none. Set once, when the seat accepts.
    client_seed = models.CharField(max_length=64, blank=True, default="")
    # The player's standing order for timeouts: treasure types, first choice first, that
    # the automatic move names instead of the rules' own choice (do_play_timeout).
    standing_order = models.JSONField(default=list, blank=True)
    # The player resigned (P26, R37): final; a stand-in bot plays the seat on (3-4 players).
    resigned = models.BooleanField(default=False)
    # A time bank game's clock (games.clocks): the seconds the seat has left at the start
    # of its turn (the turn under way spends from it); null in a game without a bank.
    bank_seconds = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        # "game_id", not "game": the latter sorts by Game's own ordering and so joins it.
        ordering = ["game_id", "seat"]
        indexes = [
            # A player's games (the game list and its count, the games waiting for them)
            # start from their seats: with the game, the seat number and the bot in the
            # index, those reads never touch the seat rows (index-only scans), which for a
            # player with thousands of games was half the list's time (docs/scaling.md).
            models.Index(fields=["user", "game", "seat", "bot"], name="seat_user_game"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_unique_number"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_unique_user"),
            # Somebody plays every seat: its player or a bot.
            models.CheckConstraint(condition=~Q(user=None) | ~Q(bot=""), name="seat_player_or_bot"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} of {self.game_id}: {self.user or self.bot + ' bot'}"

    @property
    def public_name(self) -> str:
        """The short label players see for this seat: the player's name, or the name and one
        word ("Calico Jack · bot", "Carla · bot", "Bert · resigned";
        ``games.seat_names.seat_name``, which also says what the word means)."""
        return seat_name(self)

    @property
    def is_stand_in(self) -> bool:
        """A bot plays this seat for its player, who may take it back."""
        return bool(self.bot) and self.user_id is not None

    @property
    def accepted(self) -> bool:
        return self.accepted_at is not None


class Actor(models.TextChoices):
    PLAYER = "player", "player"
    SERVICE = "service", "service (deadline passed)"
    MODERATOR = "moderator", "moderator"
    BOT = "bot", "bot"


class Move(models.Model):
    """One applied move; ``number`` is the game version the move produced (1, 2, …)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()
    round = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    # Ids, not the cards: the public form is rebuilt by the rules when read
    # (``public_revealed``: Piratz cards in rules P1 key order, which a jsonb column would
    # not keep).
    revealed = models.JSONField(
        null=True,
        blank=True,
        help_text="What the move turned up, as ids: a card id (Piratz) or a list of strip "
        "ids (Rattenscharf).",
    )
    automatic = models.BooleanField(default=False)
    actor = models.CharField(max_length=10, choices=Actor.choices, default=Actor.PLAYER)
    actor_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="Who submitted it: the player, or the moderator who forced it.",
    )
    at = models.DateTimeField()

    class Meta:
        ordering = ["game_id", "number"]
        constraints = [
            # The version check already serialises moves; this makes a lost race impossible
            # to store even if some future code path forgot to lock the game row.
            models.UniqueConstraint(fields=["game", "number"], name="move_unique_number"),
        ]

    def __str__(self) -> str:
        return f"move {self.number} of {self.game_id}: seat {self.seat} {self.action}"

    def public_entry(self, rules, *, reduced: bool = False) -> dict:
        """The log entry of docs/api.md "Games, moves and versions" (``rules``: the game's module).

        ``reduced`` gives the blind-mode shape of an entry the viewer may no longer see
        (rules P23): the action's kind only, no card. Which entries a viewer gets reduced
        is decided in one place, ``games.movelog.public_log``; build player logs there.
        """
        if reduced:
            return {
                "number": self.number,
                "seat": self.seat,
                "action": {"action": self.action["action"]},
                "revealed": None,
                "automatic": self.automatic,
                "at": self.at,
            }
        return {
            "number": self.number,
            "seat": self.seat,
            "action": self.action,
            "revealed": rules.public_revealed(self.revealed),
            "automatic": self.automatic,
            "at": self.at,
        }


class SeatChange(models.Model):
    """Who plays a seat changed: a bot stood in, a player took their seat back, a
    moderator handed it to a bot. The log of ``games.bots``; never changed afterwards."""

    class Kind(models.TextChoices):
        STAND_IN = "stand_in", "a bot stands in"
        TAKEN_BACK = "taken_back", "the player took the seat back"
        # A substitute took the seat over from its stand-in bot (``SeatOffer``): the seat is
        # theirs from now on; ``previous_user`` played it before and lost it.
        SUBSTITUTED = "substituted", "a substitute took the seat over"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_changes")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices)
    level = models.CharField(max_length=20, blank=True, default="")
    why = models.CharField(
        max_length=12,
        blank=True,
        default="",
        help_text="For a stand-in: timeouts, abandonment (P25) or moderator.",
    )
    actor = models.CharField(max_length=10, choices=Actor.choices)
    actor_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The player who took the seat back, the substitute, or the moderator.",
    )
    # A substitution's player before (who lost the seat); null for the other kinds, and
    # once that account is gone for good.
    previous_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="For a substitution: who played the seat before.",
    )
    version = models.PositiveIntegerField(help_text="The game's version at the change.")
    at = models.DateTimeField()

    class Meta:
        ordering = ["game_id", "id"]

    def __str__(self) -> str:
        return f"seat {self.seat} of {self.game_id}: {self.kind} at {self.at}"


class SeatOffer(models.Model):
    """The host offers an absent player's seat (a stand-in bot plays it) to a substitute:
    to one address (an emailed link, ``email`` and the hash of its token) or to anyone in
    the lobby (``email`` empty). Written only by ``games.actions.substitutes``; at most one
    open offer per seat. The link's token itself is never stored: only its SHA-256."""

    class Closed(models.TextChoices):
        OPEN = "", "open"
        TAKEN = "taken", "taken by a substitute"
        WITHDRAWN = "withdrawn", "withdrawn by the host"
        # The seat no longer wants a substitute: its player took it back, the game ended.
        VOID = "void", "no longer needed"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_offers")
    seat = models.PositiveSmallIntegerField()
    offered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The host (the holder of the host's chair) who offered it.",
    )
    # The address offered to (canonical); "" for an offer in the lobby.
    email = models.EmailField(blank=True, default="")
    token_hash = models.CharField(max_length=64, blank=True, default="", editable=False)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    closed = models.CharField(max_length=10, choices=Closed.choices, blank=True, default="")
    closed_at = models.DateTimeField(null=True, blank=True)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The substitute who took the seat.",
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # The lobby lists the open offers in the lobby (no address), newest first.
            models.Index(
                fields=["created_at"],
                name="seat_offer_open_lobby",
                condition=Q(closed="", email=""),
            ),
        ]
        constraints = [
            # One open offer per seat: a second one waits until the first is closed.
            models.UniqueConstraint(
                fields=["game", "seat"], condition=Q(closed=""), name="seat_offer_one_open"
            ),
        ]

    def __str__(self) -> str:
        # Never the address: this shows up in logs and the shell.
        where = "by email" if self.email else "in the lobby"
        return f"offer of seat {self.seat} of {self.game_id} {where} ({self.closed or 'open'})"

    @property
    def in_lobby(self) -> bool:
        return not self.email

    @staticmethod
    def hash_token(token: str) -> str:
        """What is stored of an emailed offer's link token (``token_hash``)."""
        return rows.hash_token(token)


class GameNote(models.Model):
    """A player's private notes on one game (issue 34): only their writer ever reads them,
    not the other players, not moderators (no admin, no API for staff). One per person and
    game; written only by ``games.actions.notes``."""

    # The longest note (the table's field and the API's schema say so too).
    MAX_LENGTH = 10_000

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.TextField()
    updated_at = models.DateTimeField()

    class Meta:
        ordering = ["game_id", "user_id"]
        constraints = [
            # One note per person and game: saving again replaces it (an upsert on this).
            models.UniqueConstraint(fields=["game", "user"], name="game_note_unique_writer"),
        ]

    def __str__(self) -> str:
        # Never the text: this shows up in logs and the shell.
        return f"notes of user {self.user_id} on {self.game_id}"
