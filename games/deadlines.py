"""When a turn's time runs out and when its reminders fall: vacations pause it, quiet hours end it.

The arithmetic is pure (``deadline_after`` and its parts, ``reminder_due``) and tested
without a database. The rest reads the player's settings and vacations
(``accounts.preferences``) and sets the game's turn fields: ``start_turn`` when a turn
begins, ``recompute_deadline`` / ``refresh_deadlines_for`` when a player's vacations
change, ``extend_turn`` for a moderator; ``end_turn`` settles a time bank when a turn
ends. Each kind of clock (``games.clocks``: hours per turn, a time bank, a daily deadline)
only decides where a turn's own clock runs out (``own_clock_end``); vacations, quiet hours,
extensions and pauses work the same for all three. The reminder and digest sweeps that
read these fields are in ``games.sweeps``.
"""

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.preferences import settings_for, vacations_between
from accounts.schedule import EmailKind, next_local_hour, zone_named
from games.bots import bot_deadline
from games.clocks import DAILY_MIN_HOURS, bank_after_turn
from games.models import ClockKind, Game, GameStatus, Seat, turn_hours

Interval = tuple[datetime, datetime]

# How far past the turn's start vacations are looked up. A vacation allowance is at most
# a few weeks a year, so no deadline can be pushed further than this.
_VACATION_HORIZON = timedelta(days=800)


def clock_deadline(
    turn_start: datetime, length: timedelta, vacations: Sequence[Interval] = ()
) -> datetime:
    """When ``length`` of clock time from ``turn_start`` is used up, the clock standing
    still during ``vacations`` (sorted, disjoint): it resumes with the time that was
    left when a vacation began, and a turn starting inside one starts at its end."""
    moment, left = turn_start, length
    for start, end in vacations:
        if end <= moment:
            continue  # over before the clock reached it
        if start >= moment + left:
            break  # the time runs out before this one begins
        left -= max(start - moment, timedelta(0))
        moment = end
    return moment + left


def clock_time_between(start: datetime, end: datetime, vacations: Sequence[Interval]) -> timedelta:
    """The clock time from ``start`` to ``end`` that is outside ``vacations``."""
    paused = sum(
        (
            min(end, v_end) - max(start, v_start)
            for v_start, v_end in vacations
            if v_start < end and v_end > start
        ),
        timedelta(0),
    )
    return end - start - paused


def settle(
    deadline: datetime,
    vacations: Sequence[Interval] = (),
    quiet_until: Callable[[datetime], datetime] | None = None,
) -> datetime:
    """``deadline`` moved out of quiet hours and vacations: the first moment not before it
    that is inside neither (``quiet_until(moment)``: ``moment`` itself outside the quiet
    hours, else their end)."""
    while True:
        if quiet_until is not None:
            deadline = quiet_until(deadline)
        # Quiet hours may end inside a vacation (or at its start): the vacation wins, and
        # its end may in turn be quiet, hence the loop. Each pass moves strictly later
        # past one vacation, so it ends.
        inside = next((end for start, end in vacations if start <= deadline < end), None)
        if inside is None:
            return deadline
        deadline = inside


def deadline_after(
    turn_start: datetime,
    length: timedelta,
    vacations: Sequence[Interval] = (),
    quiet_until: Callable[[datetime], datetime] | None = None,
) -> datetime:
    """When a turn of ``length`` clock time that started at ``turn_start`` runs out.

    ``vacations``: the player's absences, sorted and disjoint (as ``vacations_between``
    gives them). The clock stands still during a vacation and resumes with the time that
    was left when it began; a turn that starts inside a vacation starts its clock at the
    vacation's end. ``quiet_until(moment)``: the player's quiet hours (``moment`` itself
    outside them, else their end); a turn that starts inside them starts its clock at
    their end, when its email goes out (``notify``: the turn email waits for it), and a
    deadline never falls inside them, nor inside a vacation, so it is pushed past both
    until it is clear of each.
    """
    start = clock_start(turn_start, quiet_until)
    return settle(clock_deadline(start, length, vacations), vacations, quiet_until)


def clock_start(
    turn_start: datetime, quiet_until: Callable[[datetime], datetime] | None = None
) -> datetime:
    """When the clock of a turn that began at ``turn_start`` starts: then, or at the end
    of the player's quiet hours if it began inside them.

    The player learns of the turn only then (the turn email waits for the end of quiet
    hours), so a clock started earlier would spend their time while they cannot know: a
    turn shorter than the night could end the moment its email arrives.
    """
    return turn_start if quiet_until is None else quiet_until(turn_start)


def daily_clock_end(
    clock_from: datetime,
    hour: int,
    zone,
    vacations: Sequence[Interval] = (),
    min_length: timedelta | None = None,
) -> datetime:
    """Where a daily deadline's turn whose clock starts at ``clock_from`` runs out: the
    first moment the clock in ``zone`` reads ``hour``:00 once at least ``min_length``
    (default ``DAILY_MIN_HOURS``) of clock time outside ``vacations`` has run, and not
    inside a vacation (one running then moves it to the first such hour after its end).

    Local hours follow the zone's daylight saving time (``next_local_hour``: a skipped hour
    is reached at the jump, a repeated one counts once).
    """
    if min_length is None:
        min_length = turn_hours(DAILY_MIN_HOURS)
    earliest = clock_deadline(clock_from, min_length, vacations)
    # next_local_hour is strictly after its moment: a microsecond earlier takes the hour
    # itself when the earliest moment is exactly on it.
    moment = next_local_hour(zone, hour, earliest - timedelta(microseconds=1))
    while (inside := next((end for s, end in vacations if s <= moment < end), None)) is not None:
        moment = next_local_hour(zone, hour, inside - timedelta(microseconds=1))
    return moment


def reminder_due(
    deadline: datetime, turn_length: timedelta, leads: Iterable[int], sent: Iterable[int]
) -> tuple[datetime, int] | None:
    """The next reminder of a turn: (when, lead in hours), or None when none is left.

    ``leads``: the player's lead times in hours before ``deadline``; a lead not shorter
    than ``turn_length`` is skipped (it would fall at or before the turn's start), and so
    is every lead in ``sent`` (already sent this turn: each goes out at most once).
    The next reminder is the unsent lead that falls first (the longest one).
    """
    sent = set(sent)
    pending = [lead for lead in leads if lead not in sent and turn_hours(lead) < turn_length]
    if not pending:
        return None
    lead = max(pending)
    return deadline - turn_hours(lead), lead


def _seat_row(game: Game, seat: int) -> Seat:
    # Uses the game's prefetched seats when the caller has them (the move path does).
    for row in game.seats.all():
        if row.seat == seat:
            return row
    raise Seat.DoesNotExist(f"game {game.id} has no seat {seat}")


def _seat_user(game: Game, seat: int):
    return _seat_row(game, seat).user


def _turn_start(game: Game) -> datetime:
    if game.turn_started_at is not None:
        return game.turn_started_at
    # A turn begun before turn starts were recorded: its clock as it was then set.
    assert game.deadline is not None  # every turn under way has a deadline
    return game.deadline - game.turn_length() - game.turn_extension


def _own_length(game: Game, seat: int) -> timedelta:
    """The clock time a turn of ``seat`` has before vacations and extensions (a daily
    deadline's turn: at most a day and a half)."""
    if game.clock == ClockKind.BANK:
        return _bank(game, _seat_row(game, seat))
    if game.clock == ClockKind.DAILY:
        return turn_hours(DAILY_MIN_HOURS + 24)
    return turn_hours(game.turn_hours)


def _bank(game: Game, row: Seat) -> timedelta:
    """The bank ``row`` starts its turn with (the game's first bank if none is stored)."""
    if row.bank_seconds is not None:
        return timedelta(seconds=row.bank_seconds)
    return turn_hours(game.bank_hours or 0)


def own_clock_end(game: Game, seat: int, clock_from: datetime, vacations: Sequence[Interval]):
    """Where the own clock of ``seat``'s turn in ``game``, started at ``clock_from``, runs
    out (the clock standing still during ``vacations``), before extensions and quiet
    hours: ``turn_hours`` of clock time; with a time bank, the seat's bank; with a daily
    deadline, the daily hour (``daily_clock_end``)."""
    if game.clock == ClockKind.DAILY:
        assert game.daily_hour is not None  # clean_clock sets it for every daily game
        zone = zone_named(game.daily_zone or "UTC")
        return daily_clock_end(clock_from, game.daily_hour, zone, vacations)
    return clock_deadline(clock_from, _own_length(game, seat), vacations)


def _clock(game: Game, seat: int, turn_start: datetime, extra: timedelta = timedelta(0)):
    """The player at ``seat``, their quiet hours and their vacations for the turn."""
    user = _seat_user(game, seat)
    length = _own_length(game, seat) + game.turn_extension
    horizon = turn_start + length + extra + _VACATION_HORIZON
    return user, settings_for(user).quiet_until, vacations_between(user.id, turn_start, horizon)


def _clock_end(game: Game, seat: int, clock_from: datetime, vacations) -> datetime:
    """Where the turn's clock runs out with the time granted this turn (unsettled)."""
    own = own_clock_end(game, seat, clock_from, vacations)
    return clock_deadline(own, game.turn_extension, vacations)


def turn_deadline(game: Game, seat: int, turn_start: datetime) -> datetime:
    """The deadline of the turn of ``seat`` in ``game`` that started at ``turn_start``.

    The game's turn length (plus any time moderators granted this turn,
    ``game.turn_extension``) of clock time outside that player's vacations, then moved
    out of the player's quiet hours (see ``deadline_after``); the turn length is the
    seat's bank with a time bank, and up to the daily hour with a daily deadline
    (``own_clock_end``). Reads the database.

    A suspended player's turn times out at once (rules P24; ``User.is_suspended``): the
    deadline is now (or ``turn_start`` if that is later), for the deadline sweep to play.
    A bot's turn (``games.bots``) gets the bot's short deadline: its task plays it first.
    """
    if _seat_row(game, seat).bot:
        return bot_deadline(turn_start)
    user = _seat_user(game, seat)
    if user.is_suspended():
        return max(turn_start, timezone.now())
    _user, quiet, vacations = _clock(game, seat, turn_start)
    clock_from = clock_start(turn_start, quiet)
    return settle(_clock_end(game, seat, clock_from, vacations), vacations, quiet)


def extend_turn(game: Game, hours: int, now: datetime) -> None:
    """Give the player to move in the locked ``game`` ``hours`` more time (a moderator's call).

    The deadline becomes (at least) ``hours`` after the current deadline, or after
    ``now`` if it has passed already; the reminders still unsent follow it. The time is
    recorded as ``turn_extension`` (clock time added to this turn), so recomputing the
    deadline later, when a vacation is declared, keeps it. The caller saves ``deadline``,
    ``turn_extension`` and ``next_reminder_at``.
    """
    assert game.current_seat is not None  # a moderator extends a turn under way
    start = _turn_start(game)
    extra = turn_hours(hours)
    _user, quiet, vacations = _clock(game, game.current_seat, start, extra + (now - start))
    start = clock_start(start, quiet)  # as turn_deadline counts
    target = max(game.deadline or now, now) + extra
    # The clock time from where this turn's clock now runs out to the target: adding it
    # makes the clock run out at the target (or at the end of a vacation holding it).
    game.turn_extension += clock_time_between(
        _clock_end(game, game.current_seat, start, vacations), target, vacations
    )
    recompute_deadline(game)


def schedule_reminders(game: Game, *, new_turn: bool) -> None:
    """Set ``game.next_reminder_at`` from its current deadline (the caller saves the row).

    ``new_turn``: the turn has just begun, so no reminder of it has been sent yet. Only
    for a player who wants reminders at all (``each_turn`` mode, not unsubscribed); a
    deadline moved later brings the reminders still unsent along with it.
    """
    if new_turn:
        game.reminder_leads_sent = []
    game.next_reminder_at = None
    if game.status != GameStatus.ACTIVE or game.deadline is None or game.current_seat is None:
        return
    if _seat_row(game, game.current_seat).bot:
        return  # a bot plays this turn: nobody to remind
    player = _seat_user(game, game.current_seat)
    if player.is_suspended():
        return  # the turn is played for them at once: nothing to remind of
    prefs = settings_for(player)
    if not prefs.wants(EmailKind.REMINDER):
        return
    due = reminder_due(
        game.deadline, game.turn_length(), prefs.reminder_leads, game.reminder_leads_sent
    )
    if due is not None:
        game.next_reminder_at = due[0]


def start_turn(game: Game, now: datetime) -> None:
    """The turn of ``game.current_seat`` begins at ``now``: its deadline and reminders.

    Called by the actions that hand the turn on (the game's start, a move ending a turn)
    inside their transaction; they save the fields it sets: ``turn_started_at``,
    ``turn_extension``, ``deadline``, ``next_reminder_at``, ``reminder_leads_sent``.
    """
    assert game.current_seat is not None  # only a game with a seat to move starts a turn
    game.turn_started_at = now
    game.turn_extension = timedelta(0)
    game.deadline = turn_deadline(game, game.current_seat, now)
    schedule_reminders(game, new_turn=True)
    hold_while_paused(game)


def turn_time_used(game: Game, row: Seat, now: datetime) -> timedelta:
    """The clock time the turn under way of ``row`` (the seat to move) has run by ``now``:
    from its clock's start (after quiet hours) outside the player's vacations, and not
    while the game is paused (a turn begun while paused has used nothing)."""
    start = game.turn_started_at
    if start is None or row.user is None:
        return timedelta(0)
    end = now if game.paused_at is None else min(now, game.paused_at)
    clock_from = clock_start(start, settings_for(row.user).quiet_until)
    if end <= clock_from:
        return timedelta(0)
    return clock_time_between(clock_from, end, vacations_between(row.user.id, clock_from, end))


def bank_left(game: Game, row: Seat, now: datetime) -> timedelta | None:
    """What the bank of ``row`` holds at ``now`` (None: ``game`` has no time bank).

    The seat to move (a person, in an active game) has its bank less the clock time its
    turn has used (``turn_time_used``), never less than nothing; any other seat its bank.
    """
    if game.clock != ClockKind.BANK:
        return None
    bank = _bank(game, row)
    if game.status != GameStatus.ACTIVE or game.current_seat != row.seat or row.bot:
        return bank
    return max(bank - turn_time_used(game, row, now), timedelta(0))


def end_turn(game: Game, seat: int, now: datetime) -> None:
    """The turn of ``seat`` in the locked ``game`` ends at ``now`` (its move ended it, or
    the deadline did): with a time bank, the seat keeps what the turn left of its bank
    plus the increment, up to the cap (``clocks.bank_after_turn``), saved on its seat row.

    Call it before ``game.current_seat`` moves on. Nothing for other clocks, nor for a
    seat a bot plays (a bot's deadline is its own; the player's bank waits for them).
    """
    if game.clock != ClockKind.BANK:
        return
    row = _seat_row(game, seat)
    left = bank_left(game, row, now)
    if left is None or row.bot:
        return
    increment = turn_hours(game.increment_hours or 0)
    cap = turn_hours(game.cap_hours or 0)
    row.bank_seconds = int(bank_after_turn(left, increment, cap).total_seconds())
    row.save(update_fields=["bank_seconds"])


TURN_FIELDS = [
    "turn_started_at",
    "turn_extension",
    "deadline",
    "next_reminder_at",
    "reminder_leads_sent",
]


def recompute_deadline(game: Game) -> None:
    """Recompute the locked ``game``'s deadline and reminders for the turn under way.

    For when the inputs changed mid-turn (a vacation declared or ended, a moderator's
    extension); the caller saves ``deadline``, ``next_reminder_at`` and ``updated_at``.
    """
    assert game.current_seat is not None  # callers pass active games only
    game.deadline = turn_deadline(game, game.current_seat, _turn_start(game))
    schedule_reminders(game, new_turn=False)
    hold_while_paused(game)


def hold_while_paused(game: Game) -> None:
    """While the host has paused ``game`` (``Game.paused_at``) its clock stands still: no
    deadline, no reminder (so no timeout either); a turn that starts then starts unclocked
    and gets a whole turn when the game resumes (``games.actions.together``)."""
    if game.paused_at is not None:
        game.deadline = None
        game.next_reminder_at = None


def refresh_deadlines_for(user) -> int:
    """Recompute the deadline of every active game whose current player is ``user``.

    Call it after ``user``'s vacations or suspension change, in the same transaction: a
    vacation running during the turn pauses its clock; one ended early gives the time
    back; a suspension makes the deadline now, and its end gives the turn's clock back.
    Each game row is locked while it changes, so a move or a timeout racing this sees
    either the old deadline or the new one. Returns how many games were looked at.
    """
    refreshed = 0
    with transaction.atomic():
        waiting = Game.objects.select_for_update(of=("self",)).filter(
            status=GameStatus.ACTIVE, seats__user=user, seats__seat=F("current_seat")
        )
        for game in waiting:
            recompute_deadline(game)
            game.save(update_fields=["deadline", "next_reminder_at", "updated_at"])
            refreshed += 1
    return refreshed


def on_turn_clock_changed(sender, user, **kwargs) -> None:
    """``accounts.signals.turn_clock_changed`` receiver: the person's waiting games follow.

    Runs in the transaction that saved the change (vacation, quiet hours, zone, ...).
    """
    refresh_deadlines_for(user)
