"""Bots at the table: who a bot is, when its turn is scheduled, and when one stands in.

A seat is played by a bot when ``Seat.bot`` names a level of the game's rules
(``rules.BOT_LEVELS``): a bot's own seat (no user, seated by the host) or a stand-in for
a player who keeps the seat and may take it back (``games.actions.bots``), of the level
the game names for that (``stand_in_level``).

Bot moves go through ``games.actions.play.do_play_bot_move`` like any move. When the turn
passes to a bot, ``schedule_bot_turn`` (connected to ``games.events`` in
``GamesConfig.ready``) publishes ``games.tasks.play_bot_turn`` after commit, with a
countdown of ``BOT_MOVE_DELAY_SECONDS`` so the game feels natural; the bot's turn also
gets a short deadline (``bot_deadline``), so that a lost task is played by the deadline
sweep (as a bot move, never P24). A countdown is safe here where the sweeps avoid them:
it is seconds, far below the broker's redelivery timeout, a task delivered twice finds
the version moved on and does nothing, and a task lost with the broker is the sweep's.

Only the engine's ``view`` for the bot's own seat and the public log as that seat may
see it (``games.movelog.public_log``) reach a bot: never the secret state.
"""

import logging
import random
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction

from core.tasks import task_named
from games.models import Actor, Game, GameStatus, Move, Seat, SeatChange, turn_delay
from games.movelog import RESIGN, public_log
from games.notify import table_changes

logger = logging.getLogger(__name__)

# Why a bot stands in (``SeatChange.why``); a resigned seat's bot plays it to the end (P26).
WHY_TIMEOUTS, WHY_ABANDONMENT, WHY_MODERATOR = "timeouts", "abandonment", "moderator"
WHY_RESIGNED = "resigned"
# The player deleted their account (``games.actions.erasure``): the bot plays on for good.
WHY_ERASED = "erased"


def levels_of(rules) -> tuple[str, ...]:
    """The bot levels a rules module offers (weakest first); empty: no bots in that game."""
    return tuple(getattr(rules, "BOT_LEVELS", ()))


def stand_in_level(rules) -> str | None:
    """The level of the bot that stands in for a player in a game of ``rules``: the
    engine's ``STAND_IN_LEVEL`` when it names one, else its strongest level (the last of
    ``BOT_LEVELS``); None for a game without bots."""
    levels = levels_of(rules)
    if not levels:
        return None
    return getattr(rules, "STAND_IN_LEVEL", None) or levels[-1]


def seat_row(game: Game, number: int) -> Seat:
    """The seat row ``number`` of ``game`` (the prefetched seats when the caller has them)."""
    return next(row for row in game.seats.all() if row.seat == number)


def bot_to_move(game: Game) -> Seat | None:
    """The seat row of the bot whose move ``game`` waits for, or None (a human's, or over)."""
    if game.status != GameStatus.ACTIVE or game.current_seat is None:
        return None
    row = seat_row(game, game.current_seat)
    return row if row.bot else None


def bot_deadline(now: datetime) -> datetime:
    """The deadline of a bot's turn begun at ``now``: its task's delay and a grace period
    (on the turn clock: ``turn_delay``), after which the deadline sweep plays the bot's
    move (the task was lost)."""
    grace = turn_delay(settings.BOT_TURN_GRACE_SECONDS)
    return now + timedelta(seconds=settings.BOT_MOVE_DELAY_SECONDS) + grace


def choose_action(game: Game, seat: int, rng: random.Random | None = None) -> dict:
    """The action the bot at ``seat`` plays now, from what that seat may see only."""
    rules = game.rules
    view = game.table_view(seat)
    memory = public_log(game, seat)
    level = seat_row(game, seat).bot
    return rules.choose_bot_action(view, level, rng or random.SystemRandom(), memory)


# --- Scheduling the bot's turn ------------------------------------------------------------


def schedule_bot_turn(game: Game) -> bool:
    """When ``game`` (locked, just saved) waits for a bot, publish its task after commit.

    Connected to ``events.move_applied`` and ``events.game_started``; also called when a
    seat changes hands mid-turn. Returns whether a task was scheduled. Publishing is
    ``robust``: a broker that is down fails nobody's request; the deadline sweep plays
    the bot's move when its short deadline passes.
    """
    if bot_to_move(game) is None:
        return False
    game_id, version = str(game.id), game.version

    def publish():
        if current_app.conf.task_always_eager and not settings.BOT_EAGER_ON_COMMIT:
            # Eager (unit tests): the task would run inside the caller, nesting one bot
            # move in the commit of the last. Tests call the task or the sweep instead.
            return
        delay = settings.BOT_MOVE_DELAY_SECONDS
        task_named("games.tasks.play_bot_turn").apply_async(
            (game_id, version), countdown=delay or None
        )

    transaction.on_commit(publish, robust=True)
    return True


def on_move_applied(sender, game: Game, move: Move, **kwargs) -> None:
    schedule_bot_turn(game)


def on_game_started(sender, game: Game, **kwargs) -> None:
    schedule_bot_turn(game)


# --- Stand-ins ----------------------------------------------------------------------------


def hand_to_bot(
    game: Game,
    row: Seat,
    *,
    why: str,
    now: datetime,
    actor: str = Actor.SERVICE,
    actor_user=None,
    level: str | None = None,
    begin_turn: bool = True,
    tell_player: bool = True,
) -> SeatChange:
    """A bot of ``level`` (None: the game's ``stand_in_level``) plays ``row``'s seat in
    the locked ``game`` from now on; the game must offer bots.

    The player keeps the seat and is emailed (``notify.table_changes.queue_stand_in``);
    they can take it back (``games.actions.bots.do_take_back_seat``). Logged as a
    ``SeatChange``. When the game waits for that seat right now, the bot's turn starts at
    once (a short deadline, its task scheduled), unless ``begin_turn`` is False (the caller
    is handing the turn on itself, as a move does). ``tell_player`` False: the caller
    queues the email itself (``notify.table_changes.queue_stand_in``), once every seat it
    hands over has changed. Must run in the transaction that locked the game.
    """
    level = level or stand_in_level(game.rules)
    if level is None:
        raise ValueError(f"game {game.id}: {game.game!r} has no bots to stand in")
    row.bot = level
    row.save(update_fields=["bot"])
    change = SeatChange.objects.create(
        game=game,
        seat=row.seat,
        kind=SeatChange.Kind.STAND_IN,
        level=level,
        why=why,
        actor=actor,
        actor_user=actor_user,
        version=game.version,
        at=now,
    )
    if begin_turn and game.status == GameStatus.ACTIVE and game.current_seat == row.seat:
        start_bot_turn(game, now)
    if tell_player:
        table_changes.queue_stand_in(game, row, why=why)
    logger.info("game %s: a %s bot stands in for seat %d (%s)", game.id, level, row.seat, why)
    return change


def start_bot_turn(game: Game, now: datetime) -> None:
    """The bot now to move in the locked ``game`` gets its short deadline and its task."""
    # Paused (Game.paused_at): the clock stands still for bots too; their task still plays.
    game.deadline = None if game.paused_at is not None else bot_deadline(now)
    game.next_reminder_at = None
    game.save(update_fields=["deadline", "next_reminder_at", "updated_at"])
    schedule_bot_turn(game)


def timed_out_in_a_row(game: Game, seat: int) -> int:
    """How many of ``seat``'s latest turns in a row ran out (rules P24, R34): the turns
    (``Move.round``) of its automatic moves since its last move of its own.

    Turns, not moves: a deadline plays the whole turn, which is one automatic move in
    Piratz (a pass or an alarm ends the seat's round) but one per strip in hand in
    Rattenscharf, whose rounds are its turns. A turn the player began and the deadline
    finished counts as run out.
    """
    moves = Move.objects.filter(game=game, seat=seat)
    last_own = moves.filter(automatic=False).order_by("-number").values("number")[:1]
    latest = moves.filter(automatic=True)
    if last_own:
        latest = latest.filter(number__gt=last_own[0]["number"])
    return latest.values("round").distinct().count()


def stand_in_after_timeouts(game: Game, seat: int, now: datetime) -> bool:
    """After an automatic move for ``seat``: a stand-in takes over once its player has
    timed out ``STAND_IN_AFTER_TIMEOUTS`` turns in a row (the game's option on)."""
    if not game.stand_in_bots or game.status != GameStatus.ACTIVE:
        return False
    row = seat_row(game, seat)
    if row.bot or row.user_id is None:
        return False
    if timed_out_in_a_row(game, seat) < settings.STAND_IN_AFTER_TIMEOUTS:
        return False
    hand_to_bot(game, row, why=WHY_TIMEOUTS, now=now)
    return True


def stand_in_instead_of_abandoning(game: Game, rounds: range, now: datetime) -> bool:
    """Rules P25 (R36) with stand-ins on: the ``rounds`` were all automatic, so instead of
    ending the game, a stand-in takes every seat whose player played none of them.
    Returns False (the game is abandoned) when the game's option is off.

    The game goes on; unless a player takes their seat back, the bots play it to its
    regular end (a finished game with a result), which cannot run forever either.
    """
    if not game.stand_in_bots:
        return False
    played = set(
        Move.objects.filter(
            game=game, round__gte=rounds.start, round__lt=rounds.stop, automatic=False
        )
        .exclude(action__action=RESIGN)  # a resignation is no move (P26)
        .values_list("seat", flat=True)
    )
    handed = [
        row
        for row in sorted(game.seats.all(), key=lambda r: r.seat)
        if row.seat not in played and not row.bot and row.user_id is not None
    ]
    for row in handed:
        # The move being applied hands the turn on and starts it (``_apply``).
        hand_to_bot(game, row, why=WHY_ABANDONMENT, now=now, begin_turn=False, tell_player=False)
    # Told once every seat has its bot, so that each email names the table as it now is
    # (one queued between the changes named some seats with their stand-in, some without).
    for row in handed:
        table_changes.queue_stand_in(game, row, why=WHY_ABANDONMENT)
    return True
