"""Playing together: a player resigns (P26, R37); the host pauses, resumes and extends the
clock; a player asks for a rematch (docs/api.md "Playing together").

Each ``do_*`` function is one transaction on the locked game row, as every action: a
refused request (``ServiceError``) changes nothing. Only the player who holds the host's
chair (``games.chair``: ``Game.host`` while they are still in the game, then the next
person still in it) pauses, resumes, extends and hands a seat to a bot (``not_host`` for
anyone else, ``conflict`` for a player who resigned); ``hand_on_the_chair`` passes it on
when its holder leaves.
"""

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import ServiceError, status_word
from core.text import clean_typed_text
from games import bots, chair, deadlines, events
from games.actions.common import (
    check_seen_version,
    end_game,
    lock_game_with_seats,
    refuse_if_suspended,
    refuse_unless_active,
)
from games.actions.invitations import BOT_PREFIX, do_create_game, player_counts_text
from games.clocks import clock_request
from games.models import PAUSE_REASON_MAX_LENGTH, Actor, EndReason, Game, GameStatus, Move, Seat
from games.movelog import RESIGN
from games.notify import game_over, table_changes
from notifications.outbox import sent_together

logger = logging.getLogger(__name__)

# The host's extension of one turn (docs/api.md "Playing together"), and the longest reason.
MIN_EXTEND_HOURS, MAX_EXTEND_HOURS = 1, 168
MAX_REASON_LENGTH = PAUSE_REASON_MAX_LENGTH

# What ``events.clock_changed`` and the emails call each change of the clock.
PAUSED, RESUMED, EXTENDED = "paused", "resumed", "extended"


def player_row(game: Game, user: User) -> Seat:
    """``user``'s seat in the locked ``game`` (seats prefetched): ``not_a_player`` for staff
    who may see it without a seat, ``not_found`` for anyone else; refused while a
    moderator's suspension of the player runs (read with the locked row)."""
    row = next((s for s in game.seats.all() if s.user_id == user.id), None)
    if row is None:
        if user.is_staff:
            raise ServiceError("not_a_player", _("You may see this game but hold no seat in it."))
        raise ServiceError("not_found", _("No such game, or you are not a player of it."))
    assert row.user is not None  # found by its user id
    refuse_if_suspended(row.user)
    return row


def refuse_unless_chair(game: Game, row: Seat) -> None:
    """Refuse anyone but the player of ``row`` when they hold the host's chair
    (``games.chair``) of the locked ``game``: ``not_host``; ``conflict`` once they have
    resigned (final: the chair is not theirs again, whoever held it)."""
    holder = chair.chair_seat(game, list(game.seats.all()))
    if holder is not None and holder.seat == row.seat:
        return
    if row.resigned:
        if holder is None or holder.user is None:
            raise ServiceError(
                "conflict", _("You have resigned from this game, so the host's chair is not yours.")
            )
        raise ServiceError(
            "conflict",
            _(
                "You have resigned from this game, so the host's chair is not yours: "
                "%(name)s holds it."
            )
            % {"name": holder.user.public_name},
        )
    raise ServiceError("not_host", _("Only the game's host may do that."))


def _refuse_if_paused(game: Game) -> None:
    if game.is_paused:
        raise ServiceError("paused", _("The game is paused; the host must resume it first."))


def _clean_reason(reason) -> str:
    """The host's reason, which every player reads in an email and on the game page: one
    line, trimmed, "" for none; ``invalid`` for what the one rule for typed text refuses
    (``core.text.clean_typed_text``: not a string, too long, control or invisible
    characters)."""
    return clean_typed_text(
        reason, field_label=_("The reason"), max_length=MAX_REASON_LENGTH, required=False
    )


# --- Resigning (P26, R37) --------------------------------------------------------------------


def do_resign(game_id, user: User, version: int) -> Game:
    """``user`` resigns from the active game, chosen from game ``version`` (P26, R37).

    Logged as an entry of its own (``{"action": "resign"}``, not automatic), which grows
    the version by 1; final. With two players the game ends at once, ``finished``
    (``end_reason`` resigned), the other player the winner, ``result`` the table scored as
    it stands with ``"resigned": [seat]``. With three or four a stand-in bot plays the seat
    to the end and the game goes on (``result_with_resignations`` leaves the seat out of
    the winners); when no person is left in the game (``chair.still_in_game``: all
    resigned, or deleted their accounts), it ends as P25 (aborted, abandoned); the other
    players are emailed that a bot plays the seat on. A host who resigns leaves the chair
    to the next person still in the game, and a pause of theirs ends
    (``hand_on_the_chair``). A retry of a resignation already applied (same version)
    answers the game.
    Raises ``ServiceError``: ``not_found``, ``not_a_player``, ``suspended``,
    ``game_not_active``, ``stale_version``, ``conflict`` (resigned already).
    Returns the game, seats prefetched.
    """
    with transaction.atomic(), sent_together():
        game = lock_game_with_seats(game_id)
        row = player_row(game, user)
        if row.resigned:
            if Move.objects.filter(
                game=game, number=version + 1, seat=row.seat, action__action=RESIGN
            ).exists():
                return game  # the client's retry after a lost answer
            raise ServiceError("conflict", _("You have resigned from this game already."))
        refuse_unless_active(game)
        if version != game.version:
            raise ServiceError(
                "stale_version",
                _("The game has moved on to version %(version)d; reload it and decide again.")
                % {"version": game.version},
            )
        now = timezone.now()
        move = Move.objects.create(
            game=game,
            number=game.version + 1,
            round=game.round or 1,
            seat=row.seat,
            action={"action": RESIGN},
            revealed=None,
            automatic=False,
            actor=Actor.PLAYER,
            actor_user=user,
            at=now,
        )
        game.version += 1
        held = chair.chair_seat(game, list(game.seats.all()))
        row.resigned = True
        row.save(update_fields=["resigned"])
        seats = list(game.seats.all())
        playing = [s.seat for s in seats if not s.resigned]
        if len(seats) == 2:
            # P26 with two players, R37: the other player wins, whatever the points.
            game.result = _resignation_result(game, playing)
            end_game(game, GameStatus.FINISHED, EndReason.RESIGNED, now, last_move=move)
            game_over.queue_game_over(game)
        elif not any(chair.still_in_game(s) for s in seats):
            # P26: every human player left has resigned (or deleted their account): the
            # game ends as P25, not played on by bots alone.
            end_game(game, GameStatus.ABORTED, EndReason.ABANDONED, now, last_move=move)
            game_over.queue_game_ended(game)
        else:
            game.save(update_fields=["version", "updated_at"])
            if not row.bot:
                # Not told "take it back" (it is final); the move's announcement below
                # schedules the bot's turn when the game waits for this seat.
                bots.hand_to_bot(
                    game,
                    row,
                    why=bots.WHY_RESIGNED,
                    now=now,
                    actor=Actor.PLAYER,
                    actor_user=user,
                    begin_turn=False,
                    tell_player=False,
                )
                if game.current_seat == row.seat:
                    game.deadline = None if game.is_paused else bots.bot_deadline(now)
                    game.next_reminder_at = None
                    game.save(update_fields=["deadline", "next_reminder_at", "updated_at"])
            passed = hand_on_the_chair(game, held, now)
            # The others hear who left and that a bot plays on (in this transaction: outbox),
            # and who holds the chair now when it passed.
            table_changes.queue_resigned(game, row, chair_passed=passed)
            events.move_applied.send(sender=Game, game=game, move=move)
        logger.info("game %s: seat %d resigned (user %s)", game.id, row.seat, user.id)
    return game


def _resignation_result(game: Game, winners: list[int]) -> dict:
    """The result of a game a resignation ended: the table scored as it stands (the rules'
    ``standing_result``), ``winners`` as given (P26, R37) and the resigned seats."""
    rules = game.rules
    state = game.load_state()
    scored = rules.view(state, None)["result"]
    if scored is None:
        standing = getattr(rules, "standing_result", None)
        scored = standing(state) if standing is not None else {"players": []}
    resigned = sorted(s.seat for s in game.seats.all() if s.resigned)
    return {**scored, "winners": winners, "resigned": resigned}


# --- The host's clock: pause, resume, extend -------------------------------------------------


def do_pause_game(game_id, user: User, reason: str | None = "") -> Game:
    """The host stops the active game's clock: no deadline, no reminders, no timeouts;
    moves are still taken, and a turn that starts meanwhile starts unclocked
    (``deadlines.hold_while_paused``). At most ``PAUSE_MAX_DAYS``: then it resumes by
    itself (``resume_due_pause``). Every player is emailed, with ``reason``.

    Raises ``ServiceError``: ``not_found``, ``not_a_player``, ``suspended``, ``not_host``,
    ``game_not_active``, ``paused`` (paused already), ``invalid`` (the reason).
    """
    reason = _clean_reason(reason)
    with transaction.atomic(), sent_together():
        game = lock_game_with_seats(game_id)
        refuse_unless_chair(game, player_row(game, user))
        refuse_unless_active(game)
        _refuse_if_paused(game)
        now = timezone.now()
        game.paused_at = now
        game.paused_until = now + timedelta(days=settings.PAUSE_MAX_DAYS)
        game.pause_reason = reason
        deadlines.hold_while_paused(game)
        game.save(
            update_fields=[
                "paused_at",
                "paused_until",
                "pause_reason",
                "deadline",
                "next_reminder_at",
                "updated_at",
            ]
        )
        table_changes.queue_clock_changed(game, PAUSED, reason=reason, actor_id=user.id)
        events.clock_changed.send(sender=Game, game=game, event=PAUSED)
        logger.info("game %s paused by its host %s", game.id, user.id)
    return game


def do_resume_game(game_id, user: User, reason: str | None = "") -> Game:
    """The host starts the paused game's clock again: the turn under way gets back the time
    it had left when paused; a turn begun while paused gets a whole turn from now.

    Raises ``ServiceError``: ``not_found``, ``not_a_player``, ``suspended``, ``not_host``,
    ``game_not_active``, ``conflict`` (not paused), ``invalid`` (the reason).
    """
    reason = _clean_reason(reason)
    with transaction.atomic(), sent_together():
        game = lock_game_with_seats(game_id)
        refuse_unless_chair(game, player_row(game, user))
        refuse_unless_active(game)
        if not game.is_paused:
            raise ServiceError("conflict", _("The game is not paused."))
        _resume(game, timezone.now(), reason=reason, automatic=False, actor_id=user.id)
        logger.info("game %s resumed by its host %s", game.id, user.id)
    return game


def resume_due_pause(game_id, paused_at: datetime, now: datetime) -> Game | None:
    """The resume sweep's action: the game paused at ``paused_at`` runs again, its pause
    having lasted ``PAUSE_MAX_DAYS`` by ``now``. Returns None and does nothing when it is
    no longer that pause (resumed since, paused anew, ended) or not yet due: a sweep that
    runs twice resumes once."""
    with transaction.atomic(), sent_together():
        game = lock_game_with_seats(game_id)
        if (
            game.status != GameStatus.ACTIVE
            or game.paused_at != paused_at
            or game.paused_until is None
            or game.paused_until > now
        ):
            return None
        _resume(game, now, reason="", automatic=True)
        logger.info("game %s resumed by itself after its longest pause", game.id)
    return game


def _resume(
    game: Game,
    now: datetime,
    *,
    reason: str,
    automatic: bool,
    left: bool = False,
    holder: Seat | None = None,
    actor_id: int | None = None,
) -> None:
    """Run the locked, paused ``game``'s clock again from ``now`` and tell everyone but
    ``actor_id`` (the host who resumed it): ``left``, because the player who paused it
    left the game and ``holder`` holds the chair now (``hand_on_the_chair``)."""
    paused_at = game.paused_at
    assert paused_at is not None  # callers resume paused games only
    game.paused_at = game.paused_until = None
    game.pause_reason = ""
    started = game.turn_started_at
    if started is None or started >= paused_at:
        # The turn began while paused (unclocked): a whole turn from now.
        deadlines.start_turn(game, now)
    else:
        # The turn's clock moves on by the pause: it has the time left when paused.
        shifted = started + (now - paused_at)
        if game.host_extended_turn == started:
            game.host_extended_turn = shifted  # still this turn: extended once already
        game.turn_started_at = shifted
        deadlines.recompute_deadline(game)
    game.save(
        update_fields=[
            "paused_at",
            "paused_until",
            "pause_reason",
            "host_extended_turn",
            *deadlines.TURN_FIELDS,
            "updated_at",
        ]
    )
    table_changes.queue_clock_changed(
        game,
        RESUMED,
        reason=reason,
        automatic=automatic,
        left=left,
        holder=holder,
        actor_id=actor_id,
    )
    events.clock_changed.send(sender=Game, game=game, event=RESUMED)


def hand_on_the_chair(
    game: Game, held: Seat | None, now: datetime, *, leaving_id: int | None = None
) -> bool:
    """After the player who held the host's chair as ``held`` may have left the locked,
    active ``game`` (resigned, or ``leaving_id``: deleting their account), pass the chair
    on: to the next person still in the game (``games.chair``), or to nobody. Returns
    whether it changed hands.

    When it did and the game is paused (only the chair pauses), the pause ends at once,
    as the holder's resume would: the turn under way gets back the time it had left, and
    everyone is told (a pause nobody left in the game may end must not hold the others
    for ``PAUSE_MAX_DAYS``). Decision 0005.
    """
    if held is None:
        return False
    holder = chair.chair_seat(game, list(game.seats.all()), leaving_id=leaving_id)
    if holder is not None and holder.seat == held.seat:
        return False
    if game.is_paused:
        _resume(game, now, reason="", automatic=False, left=True, holder=holder)
    logger.info(
        "game %s: the host's chair passed from seat %d to %s",
        game.id,
        held.seat,
        "nobody" if holder is None else f"seat {holder.seat}",
    )
    return True


def do_extend_turn(game_id, user: User, hours, reason: str | None = "") -> Game:
    """The host gives the turn under way ``hours`` (1-168) more, once per turn: added to the
    current deadline as a moderator's extension is (``deadlines.extend_turn``). Every
    player is emailed, with ``reason``.

    Raises ``ServiceError``: ``invalid`` (hours, reason), ``not_found``, ``not_a_player``,
    ``suspended``, ``not_host``, ``game_not_active``, ``paused``, ``conflict``
    (extended this turn already, or a bot is to move).
    """
    if type(hours) is not int or not MIN_EXTEND_HOURS <= hours <= MAX_EXTEND_HOURS:
        raise ServiceError(
            "invalid",
            _("hours must be a whole number from %(min)d to %(max)d.")
            % {"min": MIN_EXTEND_HOURS, "max": MAX_EXTEND_HOURS},
        )
    reason = _clean_reason(reason)
    with transaction.atomic(), sent_together():
        game = lock_game_with_seats(game_id)
        refuse_unless_chair(game, player_row(game, user))
        refuse_unless_active(game)
        _refuse_if_paused(game)
        if game.host_extended_turn is not None and game.host_extended_turn == game.turn_started_at:
            raise ServiceError("conflict", _("You have extended this turn already: once per turn."))
        if bots.bot_to_move(game) is not None:
            raise ServiceError("conflict", _("A bot is to move: it needs no more time."))
        deadlines.extend_turn(game, hours, timezone.now())
        game.host_extended_turn = game.turn_started_at
        game.save(
            update_fields=[
                "deadline",
                "turn_extension",
                "next_reminder_at",
                "host_extended_turn",
                "updated_at",
            ]
        )
        table_changes.queue_clock_changed(
            game, EXTENDED, reason=reason, hours=hours, actor_id=user.id
        )
        events.clock_changed.send(sender=Game, game=game, event=EXTENDED)
        logger.info("game %s: turn extended by %dh by its host %s", game.id, hours, user.id)
    return game


# --- Rematch ---------------------------------------------------------------------------------


def do_rematch(game_id, user: User) -> tuple[Game, bool]:
    """A new game after the finished or aborted one: the same kind, options, ``turn_hours``,
    clock (a time bank's numbers, a daily deadline's hour and zone), stand-in setting and
    ``public`` (its table talk starts closed to spectators again),
    the same people with the seat order turned by one (seat 1 starts),
    ``user`` its host, the others invited as usual and bots seated again as bots. A
    player who has deleted their account is left out (their seat with it), when the
    players left still make a game of that kind.

    One per game: the old game's row lock orders concurrent asks, and ``Game.rematch``
    (one-to-one) holds the one made; asked again, by any player, it is that game. Returns
    ``(game, created)``. Raises ``ServiceError``: ``not_found``, ``not_a_player``,
    ``game_not_active`` (still invited or active, or cancelled), ``conflict`` (too few
    players left after a deletion), and whatever creating a game refuses
    (``suspended``, ``throttled``), creating nothing then.
    """
    with transaction.atomic():
        old = lock_game_with_seats(game_id)
        row = next((s for s in old.seats.all() if s.user_id == user.id), None)
        if row is None:
            player_row(old, user)  # raises not_a_player or not_found
        if old.rematch_id is not None:
            return Game.objects.get(id=old.rematch_id), False
        if old.status not in (GameStatus.FINISHED, GameStatus.ABORTED):
            raise ServiceError(
                "game_not_active",
                _("This game is %(status)s; a rematch follows a game that has ended.")
                % {"status": status_word(old.status)},
            )
        # An erased account has no address to invite (``erased-<id>@invalid`` is refused,
        # and must never be shown): its seat is left out, a bot's own seat stays a bot.
        kept = [
            s
            for s in sorted(old.seats.all(), key=lambda s: s.seat)
            if s.user is None or s.user.erased_at is None
        ]
        rules = old.rules
        if len(kept) < len(old.seats.all()) and len(kept) not in rules.PLAYER_COUNTS:
            raise ServiceError(
                "conflict",
                _(
                    "A player of this game has deleted their account, and a game of "
                    "%(game)s needs %(counts)s players, so there can be no rematch."
                )
                % {"game": rules.NAME, "counts": player_counts_text(rules)},
            )
        entries = [s.user.email if s.user is not None else f"{BOT_PREFIX}{s.bot}" for s in kept]
        new = do_create_game(
            user,
            entries[1:] + entries[:1],
            game=old.game,
            turn_hours=old.turn_hours,
            stand_in_bots=old.stand_in_bots,
            rated=old.rated,
            clock=clock_request(old),
            clock_zone=old.daily_zone or None,
            public=old.public,
            **old.rules_options(),
        )
        old.rematch = new
        old.save(update_fields=["rematch"])
        logger.info("game %s: rematch %s asked by user %s", old.id, new.id, user.id)
    return new, True


# --- The host hands an absent player's seat to a bot ------------------------------------------

# Why a bot stands in when the host asked (``SeatChange.why``; the player's email says so).
WHY_HOST = "host"


def do_host_stand_in(game_id, user: User, seat: int, version: int | None = None) -> Game:
    """The host hands the seat ``seat`` of an absent player of the active game to a
    stand-in bot (``bots.hand_to_bot``, as a moderator or the timeouts do), chosen from
    game ``version`` (None: not checked).

    Not a moderator's action: no audit entry; the seat change is logged (``SeatChange``,
    ``why`` "host", by the host as a player) and the player emailed
    (``notify.table_changes.queue_stand_in``); they keep the seat and take it back with one click.
    Raises ``ServiceError``: ``not_found``, ``not_a_player``, ``suspended``, ``not_host``,
    ``game_not_active``, ``stale_version``, ``invalid`` (no such seat, the host's own
    seat, a bot plays it already, it resigned, the game has no bots).
    """
    with transaction.atomic(), sent_together():
        game = lock_game_with_seats(game_id)
        refuse_unless_chair(game, player_row(game, user))
        refuse_unless_active(game)
        check_seen_version(game, version)
        if bots.stand_in_level(game.rules) is None:
            raise ServiceError("invalid", _("This game has no bots to stand in."))
        row = next((s for s in game.seats.all() if s.seat == seat), None)
        if row is None:
            raise ServiceError("invalid", _("This game has no seat %(seat)d.") % {"seat": seat})
        if row.user_id == user.id:
            raise ServiceError("invalid", _("That is your own seat: play it, or resign."))
        if row.bot:
            raise ServiceError("conflict", _("A bot plays that seat already."))
        if row.resigned:
            raise ServiceError("conflict", _("That player has resigned."))
        bots.hand_to_bot(
            game, row, why=WHY_HOST, now=timezone.now(), actor=Actor.PLAYER, actor_user=user
        )
        logger.info("game %s: its host %s handed seat %d to a bot", game.id, user.id, seat)
    return game
