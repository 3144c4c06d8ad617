"""Due work swept from the database: each item claimed with a guarded UPDATE, acted on once."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games import notify
from games.models import EndReason, Game, GameStatus


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
