"""Who plays a seat: a player takes their seat back from a stand-in bot; a moderator hands
a player's seat to a bot. Both are logged (``SeatChange``; the moderator's also in the
audit log). The bots' own moves are ``games.actions.play.do_play_bot_move``."""

import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import audit.log
from accounts.models import User
from audit.models import AuditAction
from core.errors import ServiceError
from games import bots, deadlines
from games.actions import substitutes
from games.actions.common import (
    check_seen_version,
    lock_game_with_seats,
    refuse_if_suspended,
    refuse_unless_active,
)
from games.models import Actor, Game, SeatChange

logger = logging.getLogger(__name__)


def do_take_back_seat(game_id, user: User) -> Game:
    """``user`` plays their seat again: the stand-in bot leaves it (one click, logged).

    When the game waits for that seat, the player's turn starts now with a fresh clock.
    Raises ``ServiceError``: ``not_found`` (no such game, or not a player of it),
    ``not_a_player`` (staff without a seat), ``game_not_active`` (the game has ended),
    ``not_standing_in`` (no bot stands in for them), ``conflict`` (they resigned: the bot
    keeps the seat), ``suspended`` (a moderator's suspension runs).
    Returns the game, seats prefetched.
    """
    with transaction.atomic():
        game = lock_game_with_seats(game_id)
        row = next((s for s in game.seats.all() if s.user_id == user.id), None)
        if row is None:
            if user.is_staff:
                raise ServiceError(
                    "not_a_player", _("You may see this game but hold no seat in it.")
                )
            raise ServiceError("not_found", _("No such game, or you are not a player of it."))
        refuse_unless_active(game)
        if not row.bot:
            raise ServiceError("not_standing_in", _("You are playing your seat already."))
        if row.resigned:
            # P26: a resignation is final; the bot plays the seat to the end.
            raise ServiceError(
                "conflict", _("You resigned from this game: the bot keeps your seat.")
            )
        assert row.user is not None  # found by its user id
        refuse_if_suspended(row.user)  # read with the locked game row, not the caller's
        now = timezone.now()
        level = row.bot
        row.bot = ""
        row.save(update_fields=["bot"])
        SeatChange.objects.create(
            game=game,
            seat=row.seat,
            kind=SeatChange.Kind.TAKEN_BACK,
            level=level,
            actor=Actor.PLAYER,
            actor_user=user,
            version=game.version,
            at=now,
        )
        # Back in their seat: an offer of it to a substitute is no longer wanted.
        substitutes.void_open_offer(game, row.seat, now)
        if game.current_seat == row.seat:
            # The bot's turn becomes the player's: their own clock and reminders, from now.
            deadlines.start_turn(game, now)
            game.save(update_fields=[*deadlines.TURN_FIELDS, "updated_at"])
        logger.info("game %s: user %s took seat %d back", game.id, user.id, row.seat)
    return game


def do_replace_with_bot(
    game_id,
    moderator: User,
    seat: int | None,
    *,
    reason: str,
    level: str | None = None,
    version: int | None = None,
) -> Game:
    """A moderator hands the seat ``seat`` (a suspended or absent player's) to a bot;
    None: the seat the game waits for (at ``version``, as the admin's action shows it).
    ``level`` None: the game's stand-in level (``bots.stand_in_level``).

    The player keeps the seat, is emailed, and may take it back (once any suspension is
    over). ``version``: the game version the moderator saw (None: not checked). The
    ``reason`` (required) goes to the audit log, written in this transaction. Raises
    ``ServiceError``: ``invalid`` (blank reason, no such seat, a bot already plays it, an
    unknown level), ``game_not_active``, ``stale_version``.
    """
    reason = audit.log.clean_reason(reason)
    with transaction.atomic():
        game = lock_game_with_seats(game_id)
        refuse_unless_active(game)
        check_seen_version(game, version)
        level = level or bots.stand_in_level(game.rules)
        if level not in bots.levels_of(game.rules):
            raise ServiceError("invalid", _("This game has no bot of that level."))
        if seat is None:
            seat = game.current_seat
        row = next((s for s in game.seats.all() if s.seat == seat), None)
        if row is None:
            raise ServiceError("invalid", _("This game has no seat %(seat)d.") % {"seat": seat})
        if row.bot:
            raise ServiceError("invalid", _("A bot plays that seat already."))
        bots.hand_to_bot(
            game,
            row,
            why=bots.WHY_MODERATOR,
            now=timezone.now(),
            actor=Actor.MODERATOR,
            actor_user=moderator,
            level=level,
        )
        audit.log.record(
            moderator,
            AuditAction.REPLACE_WITH_BOT,
            reason=reason,
            game=game,
            user=row.user,
            extra={"seat": seat, "level": level, "version": game.version},
        )
    return game
