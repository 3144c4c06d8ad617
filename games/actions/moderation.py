"""What moderators do to a game: abort it, give the player to move more time, force the
automatic move. Each takes the reason the moderator gave and the version they saw, and
writes its audit entry (``audit.log.record``) in its own transaction."""

import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import audit.log
from accounts.models import User
from audit.models import AuditAction
from core.errors import ServiceError, status_word
from games import deadlines
from games.actions.common import (
    MAX_TURN_HOURS,
    check_seen_version,
    end_game,
    lock_game,
    refuse_unless_active,
)
from games.actions.play import do_play_timeout
from games.models import EndReason, Game, GameStatus
from games.notify import game_over
from notifications.outbox import sent_together

logger = logging.getLogger(__name__)

MAX_REASON_LENGTH = audit.log.MAX_REASON_LENGTH


def do_abort_game(game_id, moderator: User, *, version: int | None = None, reason: str) -> Game:
    """A moderator ends a game for good: status ``aborted``, no result.

    ``version`` is the game version the moderator saw (None: not checked); if the game
    has moved since, ``stale_version`` is raised and nothing changes. ``reason`` (required,
    not blank: ``invalid`` otherwise) goes to the audit log and the log line.
    """
    reason = audit.log.clean_reason(reason)
    with transaction.atomic(), sent_together():  # every player is told: one send task
        game = lock_game(game_id)
        if game.status not in (GameStatus.INVITED, GameStatus.ACTIVE):
            raise ServiceError(
                "game_not_active",
                _("This game is already %(status)s.") % {"status": status_word(game.status)},
            )
        check_seen_version(game, version)
        end_game(game, GameStatus.ABORTED, EndReason.MODERATOR, timezone.now())
        game_over.queue_game_ended(game)
        audit.log.record(
            moderator,
            AuditAction.ABORT_GAME,
            reason=reason,
            game=game,
            extra={"version": game.version, "version_seen": version},
        )
        logger.info("game %s aborted by moderator %s: %r", game.id, moderator.id, reason)
    return game


def do_extend_deadline(
    game_id, moderator: User, hours: int, *, version: int | None = None, reason: str
) -> Game:
    """A moderator gives the player to move ``hours`` more time.

    ``version`` and ``reason`` as for ``do_abort_game``: checking the version matters
    here, as a game that moved on has another player to move, whose deadline the
    moderator did not mean to extend.
    """
    if not isinstance(hours, int) or not 1 <= hours <= MAX_TURN_HOURS:
        raise ServiceError(
            "invalid", _("hours must be between 1 and %(max)d.") % {"max": MAX_TURN_HOURS}
        )
    reason = audit.log.clean_reason(reason)
    with transaction.atomic():
        game = lock_game(game_id)
        refuse_unless_active(game)
        check_seen_version(game, version)
        if game.is_paused:
            # The clock stands still (the host's pause): there is no deadline to extend.
            raise ServiceError("paused", _("The game is paused; its clock stands still."))
        # Recorded as time added to the turn, so it survives a later recomputation of the
        # deadline (a vacation declared); the reminders still unsent move with it.
        deadlines.extend_turn(game, hours, timezone.now())
        assert game.deadline is not None  # extend_turn has just set it
        game.save(update_fields=["deadline", "turn_extension", "next_reminder_at", "updated_at"])
        audit.log.record(
            moderator,
            AuditAction.EXTEND_DEADLINE,
            reason=reason,
            game=game,
            extra={"hours": hours, "version": game.version, "deadline": game.deadline.isoformat()},
        )
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
    nothing changes. ``reason`` (required) goes to the audit log (``do_play_timeout``
    records it with the move) and the log line.
    """
    reason = audit.log.clean_reason(reason)
    with transaction.atomic():
        game = do_play_timeout(
            game_id, expected_version=version, moderator=moderator, reason=reason
        )
        logger.info(
            "game %s automatic move forced at version %d by moderator %s: %r",
            game.id,
            version,
            moderator.id,
            reason,
        )
    return game
