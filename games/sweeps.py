"""Due work swept from the database: each item claimed with a guarded UPDATE, acted on once."""

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games import actions, notify
from games.models import EndReason, Game, GameStatus

logger = logging.getLogger(__name__)


def cancel_expired_invitations(now: datetime | None = None) -> int:
    """Cancel every game still waiting for acceptances past its expiry; returns how many.

    Each game is claimed with a guarded UPDATE, so two sweeps running together (or a
    sweep racing the last acceptance) cancel and notify each game at most once.
    """
    now = now or timezone.now()
    due = Game.objects.filter(
        status=GameStatus.INVITED, invitation_expires_at__lte=now
    ).values_list("id", flat=True)
    cancelled = 0
    for game_id in list(due):
        with transaction.atomic():
            claimed = Game.objects.filter(
                id=game_id, status=GameStatus.INVITED, invitation_expires_at__lte=now
            ).update(
                status=GameStatus.CANCELLED,
                end_reason=EndReason.EXPIRED,
                ended_at=now,
                updated_at=now,
            )
            if claimed != 1:
                continue
            game = Game.objects.get(id=game_id)
            notify.queue_cancellation(
                game, reason="Not every player accepted the invitation in time."
            )
            cancelled += 1
    return cancelled


def play_due_timeouts(now: datetime | None = None, limit: int | None = None) -> int:
    """Play the automatic move (rules P24) in every active game whose deadline has passed.

    Returns how many automatic moves were played; ``limit`` caps how many games this run
    looks at (None: every game due at ``now``). Each game is one transaction: its row is
    claimed with ``SELECT ... FOR UPDATE SKIP LOCKED`` through the ``game_active_deadline``
    partial index, then ``do_play_timeout`` is called with the version the claim saw.

    Exactly once: the row lock makes a second sweep (another worker, a second beat, a
    retried task) skip a game this one holds instead of queueing behind it, and then find
    it no longer due; the version guard in ``do_play_timeout`` makes a sweep that read the
    game before a player's move do nothing. (SQLite has no row locks: its writers take
    turns, and the version and deadline guards alone keep each move once.) A game whose
    automatic move fails is logged and left for the next sweep; it never blocks the others.
    """
    now = now or timezone.now()
    played = 0
    # Games this run has looked at but not moved (failed, or no longer due by the action's
    # own clock): excluded, or the loop would claim them again and again.
    passed_over: list = []
    while limit is None or played + len(passed_over) < limit:
        claimed = None
        try:
            with transaction.atomic():
                claimed = _claim_due_game(now, passed_over)
                if claimed is None:
                    break
                game_id, version = claimed
                moved = actions.do_play_timeout(game_id, expected_version=version)
        except Exception:
            if claimed is None:
                raise  # the claim itself failed (database down): nothing to skip, stop
            logger.exception("Deadline sweep: the automatic move in game %s failed", claimed[0])
            moved = None
        if moved is None:
            passed_over.append(claimed[0])
        else:
            played += 1
    return played


def _claim_due_game(now: datetime, passed_over: list) -> tuple | None:
    """(id, version) of the most overdue active game nobody else holds, locked; or None.

    Must run inside the transaction that acts on it. ``SKIP LOCKED`` lets concurrent
    sweeps split the due games between them; other backends ignore it.
    """
    return (
        Game.objects.select_for_update(skip_locked=True)
        .filter(status=GameStatus.ACTIVE, deadline__lte=now)
        .exclude(id__in=passed_over)
        .order_by("deadline", "id")
        .values_list("id", "version")
        .first()
    )
