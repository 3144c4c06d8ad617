"""What moderators do to a game: abort it, give the player to move more time."""

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.actions.common import MAX_TURN_HOURS, end_game, lock_game
from games.errors import GameError
from games.models import EndReason, Game, GameStatus

logger = logging.getLogger(__name__)


def do_abort_game(game_id, moderator: User) -> Game:
    """A moderator ends a game for good: status ``aborted``, no result."""
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status not in (GameStatus.INVITED, GameStatus.ACTIVE):
            raise GameError("game_not_active", f"This game is already {game.status}.")
        end_game(game, GameStatus.ABORTED, EndReason.MODERATOR, timezone.now())
        logger.info("game %s aborted by moderator %s", game.id, moderator.id)
    return game


def do_extend_deadline(game_id, moderator: User, hours: int) -> Game:
    """A moderator gives the player to move ``hours`` more time."""
    if not isinstance(hours, int) or not 1 <= hours <= MAX_TURN_HOURS:
        raise GameError("invalid", f"hours must be between 1 and {MAX_TURN_HOURS}.")
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status != GameStatus.ACTIVE:
            raise GameError("game_not_active", f"This game is {game.status}.")
        game.deadline = max(game.deadline or timezone.now(), timezone.now()) + timedelta(
            hours=hours
        )
        game.save(update_fields=["deadline", "updated_at"])
        logger.info("game %s deadline extended by %dh by %s", game.id, hours, moderator.id)
    return game
