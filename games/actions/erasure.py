"""A player deletes their account: their seats leave the games still going (issue 26).

``erase_seats`` is the games' eraser (``accounts.erasure.erasing_account``, in
``GamesConfig.ready``): it runs inside the erasure's transaction, before the person's
address and name are erased, each game locked as every action locks it.
"""

import logging
from datetime import datetime

from django.utils.translation import gettext_lazy

from accounts.models import User
from games import bots, chair
from games.actions.common import end_game, lock_game_with_seats
from games.actions.together import hand_on_the_chair
from games.models import Actor, EndReason, Game, GameStatus
from games.notify import game_over, invitation

logger = logging.getLogger(__name__)


def erase_seats(user: User, now: datetime) -> None:
    """Take ``user`` out of their invited and active games; finished games stay as they are.

    An invitation not yet started is cancelled (``end_reason`` erased: it cannot start
    without them; their seat is closed as a declined one is, and shown as "deleted their
    account"), the others told. In an active game a stand-in bot plays their seat for
    good (``SeatChange`` why ``erased``; they are not emailed); when no other person is
    left in the game (``chair.still_in_game``), it ends: aborted, ``end_reason`` erased,
    the others told. A seat a bot plays already (a resignation, a stand-in) keeps its
    bot. When they held the host's chair, it passes on and a pause of theirs ends
    (``hand_on_the_chair``).
    """
    games = (
        Game.objects.filter(seats__user=user, status__in=[GameStatus.INVITED, GameStatus.ACTIVE])
        .values_list("id", flat=True)
        .distinct()
    )
    for game_id in list(games):
        game = lock_game_with_seats(game_id)
        row = next(s for s in game.seats.all() if s.user_id == user.id)
        if game.status == GameStatus.INVITED:
            row.declined_at = now
            row.save(update_fields=["declined_at"])
            end_game(game, GameStatus.CANCELLED, EndReason.ERASED, now)
            invitation.queue_cancellation(
                game, reason=gettext_lazy("A player has deleted their account.")
            )
            logger.info("game %s cancelled: a player's account was erased", game.id)
            continue
        if game.status != GameStatus.ACTIVE:
            continue
        seats = list(game.seats.all())
        held = chair.chair_seat(game, seats)
        others = [s for s in seats if chair.still_in_game(s, leaving_id=user.id)]
        if not others or not bots.levels_of(game.rules):
            end_game(game, GameStatus.ABORTED, EndReason.ERASED, now)
            game_over.queue_game_ended(game)
            logger.info("game %s aborted: a player's account was erased", game.id)
            continue
        if not row.bot:
            bots.hand_to_bot(
                game,
                row,
                why=bots.WHY_ERASED,
                now=now,
                actor=Actor.SERVICE,
                tell_player=False,
            )
        hand_on_the_chair(game, held, now, leaving_id=user.id)
