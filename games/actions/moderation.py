"""What moderators do to a game: abort it, give the player to move more time, force the
automatic move. Each takes the reason the moderator gave and the version they saw."""

import logging

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import deadlines, notify
from games.actions.common import MAX_TURN_HOURS, end_game, lock_game
from games.actions.play import do_play_timeout
from games.errors import GameError
from games.models import EndReason, Game, GameStatus

logger = logging.getLogger(__name__)

MAX_REASON_LENGTH = 500


def do_abort_game(
    game_id, moderator: User, *, version: int | None = None, reason: str = ""
) -> Game:
    """A moderator ends a game for good: status ``aborted``, no result.

    ``version`` is the game version the moderator saw (None: not checked); if the game
    has moved since, ``stale_version`` is raised and nothing changes. ``reason`` is
    written to the log line.
    """
    reason = _clean_reason(reason)
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status not in (GameStatus.INVITED, GameStatus.ACTIVE):
            raise GameError("game_not_active", f"This game is already {game.status}.")
        _check_version(game, version)
        end_game(game, GameStatus.ABORTED, EndReason.MODERATOR, timezone.now())
        notify.queue_game_ended(game)
        logger.info("game %s aborted by moderator %s: %r", game.id, moderator.id, reason)
    return game


def do_extend_deadline(
    game_id, moderator: User, hours: int, *, version: int | None = None, reason: str = ""
) -> Game:
    """A moderator gives the player to move ``hours`` more time.

    ``version`` and ``reason`` as for ``do_abort_game``: checking the version matters
    here, as a game that moved on has another player to move, whose deadline the
    moderator did not mean to extend.
    """
    if not isinstance(hours, int) or not 1 <= hours <= MAX_TURN_HOURS:
        raise GameError("invalid", f"hours must be between 1 and {MAX_TURN_HOURS}.")
    reason = _clean_reason(reason)
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status != GameStatus.ACTIVE:
            raise GameError("game_not_active", f"This game is {game.status}.")
        _check_version(game, version)
        # Recorded as time added to the turn, so it survives a later recomputation of the
        # deadline (a vacation declared); the reminders still unsent move with it.
        deadlines.extend_turn(game, hours, timezone.now())
        game.save(update_fields=["deadline", "turn_extension", "next_reminder_at", "updated_at"])
        logger.info(
            "game %s deadline extended by %dh by moderator %s: %r",
            game.id,
            hours,
            moderator.id,
            reason,
        )
    return game


def do_force_automatic_move(game_id, moderator: User, *, version: int, reason: str) -> Game:
    """A moderator plays the automatic move (rules P24) now for the player to move.

    ``version`` is required: the moderator chose to force the move for the game as
    they saw it, and if anybody moved since (the player, the deadline sweep), forcing
    it now would skip a turn nobody meant to skip; then ``stale_version`` is raised and
    nothing changes. ``reason`` (required) is written to the log line.
    """
    reason = _clean_reason(reason, required=True)
    with transaction.atomic():
        game = do_play_timeout(game_id, expected_version=version, moderator=moderator)
        logger.info(
            "game %s automatic move forced at version %d by moderator %s: %r",
            game.id,
            version,
            moderator.id,
            reason,
        )
    return game


def _check_version(game: Game, version: int | None) -> None:
    if version is not None and version != game.version:
        raise GameError(
            "stale_version",
            f"The game has moved on from version {version} to {game.version} since you "
            "looked; nothing was done. Look again and decide.",
        )


def _clean_reason(reason: str, *, required: bool = False) -> str:
    reason = " ".join(str(reason).split())  # one line: it goes into a log line
    if required and not reason:
        raise GameError("invalid", "Give a reason for the moderator action.")
    if len(reason) > MAX_REASON_LENGTH:
        raise GameError("invalid", f"The reason must be at most {MAX_REASON_LENGTH} characters.")
    return reason
