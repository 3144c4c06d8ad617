"""Games with open seats: created with some seats left for anyone, taken one by one; the
game starts when the last is taken, exactly as an invitation's last acceptance starts it.

Who may take a seat (the lobby's requirements, limits and blocks) is the caller's business
(``lobby.actions``, above games): these functions only keep the game consistent. An open
game is a game in ``invited`` status whose seated players have all accepted; its seat
count lives with the caller, which passes it in.
"""

import logging
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.preferences import settings_for
from core.errors import ServiceError, status_word
from games.actions.common import (
    MAX_TURN_HOURS,
    MIN_TURN_HOURS,
    end_game,
    lock_game,
    refuse_if_suspended,
)
from games.actions.invitations import (
    BOT_PREFIX,
    bot_levels_of,
    check_creation_limits,
    player_counts_text,
    start_game,
)
from games.catalogue import kinds, rules_for
from games.clocks import clean_clock
from games.fairness import clean_client_seed, new_server_seed
from games.invitation_limits import lock_inviter
from games.models import ClockKind, EndReason, Game, GameStatus, Seat
from notifications.outbox import sent_together

logger = logging.getLogger(__name__)


def create_open_game(
    host: User,
    *,
    game: str,
    seats: int,
    bots: list[str] | tuple[str, ...] = (),
    turn_hours: int = 72,
    clock: dict | None = None,
    blind: bool = False,
    rated: bool | None = None,
    stand_in_bots: bool | None = None,
    public: bool = True,
    client_seed: str | None = None,
) -> Game:
    """Create a game of ``game`` for ``seats`` players with the host's seat (0) and one per
    bot level in ``bots`` taken (accepted), the rest open; it waits in ``invited`` status.

    The options are read as ``do_create_game`` reads them (``rated`` None: rated unless a
    bot plays; ``stand_in_bots`` None: on for 3-4 players; ``clock`` as
    ``games.clocks.clean_clock`` takes it). At least one seat must stay open. The game has
    no invitation expiry (``invitation_expires_at``): the caller closes it. Must run inside
    the caller's transaction; refuses (``invalid``, ``suspended``, ``throttled``: the host's
    games a day) with nothing created. Nobody is emailed.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("create_open_game() must run in the caller's transaction")
    if game not in kinds():
        raise ServiceError(
            "invalid",
            _("Unknown game %(game)r; available: %(available)s.")
            % {"game": game, "available": kinds()},
        )
    rules = rules_for(game)
    if not isinstance(seats, int) or seats not in rules.PLAYER_COUNTS:
        raise ServiceError(
            "invalid",
            _("A game of %(game)s needs %(counts)s players.")
            % {"game": rules.NAME, "counts": player_counts_text(rules)},
        )
    if not isinstance(bots, list | tuple) or not all(isinstance(b, str) for b in bots):
        raise ServiceError("invalid", _("bots must be a list of bot levels."))
    levels = [level for level in bot_levels_of(game, [BOT_PREFIX + b for b in bots]) if level]
    if 1 + len(levels) >= seats:
        raise ServiceError(
            "invalid", _("Leave at least one seat open: fewer bots than the other seats.")
        )
    if not isinstance(turn_hours, int) or not MIN_TURN_HOURS <= turn_hours <= MAX_TURN_HOURS:
        raise ServiceError(
            "invalid",
            _("turn_hours must be between %(min)d and %(max)d.")
            % {"min": MIN_TURN_HOURS, "max": MAX_TURN_HOURS},
        )
    if blind and "blind" not in rules.OPTIONS:
        raise ServiceError(
            "invalid",
            _("%(game)s has no blind mode: nothing but the draw order is hidden.")
            % {"game": rules.NAME},
        )
    if rated and levels:
        raise ServiceError(
            "invalid", _("A game with a bot is never rated: leave rated out, or false.")
        )
    rated = not levels if rated is None else rated
    stand_in_bots = seats >= 3 if stand_in_bots is None else stand_in_bots
    clock_fields = clean_clock(clock)
    if clock_fields["clock"] == ClockKind.DAILY:
        clock_fields["daily_zone"] = settings_for(host).zone.key
    seed = clean_client_seed(game, client_seed)

    now = timezone.now()
    lock_inviter(host)  # two creations at once count the day's games one after the other
    check_creation_limits(host, now)
    server_seed, commitment = new_server_seed(game)
    record = Game.objects.create(
        game=game,
        host=host,
        turn_hours=turn_hours,
        blind=bool(blind),
        rated=bool(rated),
        public=bool(public),
        stand_in_bots=bool(stand_in_bots),
        server_seed=server_seed,
        seed_commitment=commitment,
        **clock_fields,
    )
    bank = _first_bank(record)
    Seat.objects.create(
        game=record, seat=0, user=host, accepted_at=now, client_seed=seed, bank_seconds=bank
    )
    for number, level in enumerate(levels, start=1):
        Seat.objects.create(game=record, seat=number, bot=level, accepted_at=now, bank_seconds=bank)
    logger.info("open game %s created by user %s for %d players", record.id, host.id, seats)
    return record


def _first_bank(game: Game) -> int | None:
    """A seat's time bank at the start, in seconds of the turn clock (``do_create_game``'s)."""
    if game.clock != ClockKind.BANK:
        return None
    return (game.bank_hours or 0) * settings.TURN_HOUR_SECONDS


def do_join_open_seat(
    game_id, user: User, *, seats: int, client_seed: str | None = None
) -> tuple[Game, bool]:
    """``user`` takes the next open seat of the open game ``game_id`` (``seats`` in all);
    when it was the last, the game starts (``start_game``: the deal, the emails).

    Returns the game and whether this call started it. Under the game's row lock, so of two
    people taking the last seat at once one gets it and starts the game, exactly once; the
    other is refused (``game_not_active``: it is under way). Refuses, changing nothing:
    ``not_found``, ``game_not_active`` (not waiting for players), ``conflict`` (a seat
    there already, or none left), ``suspended``. May run inside the caller's transaction
    (the lobby checks its own rules under the same lock).
    """
    with transaction.atomic(), sent_together():  # the start's emails: one send task
        game = lock_game(game_id)
        player = User.objects.get(pk=user.pk)  # read under the lock: a suspension since
        refuse_if_suspended(
            player, _("A moderator has suspended your account, so you cannot join games for now.")
        )
        refuse_unless_waiting(game)
        taken = list(Seat.objects.filter(game=game))
        if any(seat.user_id == player.pk for seat in taken):
            raise ServiceError("conflict", _("You have a seat at this game already."))
        if len(taken) >= seats:
            raise ServiceError("conflict", _("Every seat of this game is taken."))
        now = timezone.now()
        number = max(seat.seat for seat in taken) + 1  # the host's seat 0 is always there
        Seat.objects.create(
            game=game,
            seat=number,
            user=player,
            accepted_at=now,
            client_seed=clean_client_seed(game.game, client_seed),
            bank_seconds=_first_bank(game),
        )
        starts = len(taken) + 1 == seats
        if starts:
            start_game(game, now)
    logger.info("user %s took seat %d of open game %s", player.pk, number, game.id)
    return game, starts


def do_leave_open_seat(game_id, user: User) -> tuple[Game, datetime]:
    """``user`` gives up the seat they took at the open game ``game_id`` before it started:
    the seat is open again, and the seats taken after theirs move up one, so the seats stay
    numbered in turn order without a gap (the next join takes the end).

    Returns the game and when ``user`` had taken the seat (its ``accepted_at``). Under the
    game's row lock, as a join is, so a leave racing the last join or the start acts on the
    game as one of them left it. Refuses, changing nothing: ``game_not_active`` (it started
    or was closed), ``not_host`` (the host closes their game instead), ``not_found`` (no seat
    of ``user`` there). May run inside the caller's transaction. Nobody is emailed, as
    nobody is when someone joins.
    """
    with transaction.atomic():
        game = lock_game(game_id)
        refuse_unless_waiting(game)
        if game.host_id == user.pk:
            raise ServiceError(
                "not_host", _("The host cannot leave their own game; withdraw it instead.")
            )
        seat = Seat.objects.filter(game=game, user_id=user.pk).first()
        if seat is None:
            raise ServiceError("not_found", _("You have no seat at this game."))
        joined_at = seat.accepted_at or timezone.now()
        number = seat.seat
        seat.delete()
        # One row at a time, lowest first: each moves into the number just freed, so the
        # unique (game, seat) constraint holds after every statement.
        for later in Seat.objects.filter(game=game, seat__gt=number).order_by("seat"):
            Seat.objects.filter(pk=later.pk).update(seat=later.seat - 1)
    logger.info("user %s left seat %d of open game %s", user.pk, number, game.id)
    return game, joined_at


def refuse_unless_waiting(game: Game) -> None:
    """``game_not_active`` unless ``game`` still waits for players (``invited``)."""
    if game.status != GameStatus.INVITED:
        raise ServiceError(
            "game_not_active",
            _("This game is %(status)s; its seats are no longer open.")
            % {"status": status_word(game.status)},
        )


def do_close_open_game(game_id, *, expired: bool, now: datetime | None = None) -> Game | None:
    """Cancel the open game ``game_id`` that never filled: its time ran out (``expired``,
    ``end_reason`` expired) or its host withdrew it. Returns the game, or None when it no
    longer waits for players (it started, or was closed already): a sweep or a host that
    asks twice acts once. Under the game's row lock; may run inside the caller's
    transaction, which tells the players (nobody is emailed here)."""
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status != GameStatus.INVITED:
            return None
        reason = EndReason.EXPIRED if expired else EndReason.NONE
        end_game(game, GameStatus.CANCELLED, reason, now or timezone.now())
    logger.info("open game %s closed (%s)", game.id, "expired" if expired else "withdrawn")
    return game
