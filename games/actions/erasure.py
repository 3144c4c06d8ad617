"""A player deletes their account: their seats leave the games still going (issue 26).

``erase_seats`` is the games' eraser (``accounts.erasure.register_eraser``, in
``GamesConfig.ready``): it runs inside the erasure's transaction, before the person's
address and name are erased, each game locked as every action locks it.
"""

import logging
from datetime import datetime

from django.utils.translation import gettext_lazy

from accounts.models import User
from games import bots, notify
from games.actions.common import end_game, lock_game_with_seats
from games.models import Actor, EndReason, Game, GameStatus

logger = logging.getLogger(__name__)


def erase_seats(user: User, now: datetime) -> None:
    """Take ``user`` out of their invited and active games; finished games stay as they are.

    An invitation not yet started is cancelled (as a declined one is: it cannot start
    without them), the others told. In an active game a stand-in bot plays their seat for
    good (``SeatChange`` why ``erased``; they are not emailed); when no other person who
    has not resigned is left, the game ends as P25 (R36) ends it: aborted, abandoned, the
    others told. A seat a bot plays already (a resignation, a stand-in) keeps its bot.
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
            end_game(game, GameStatus.CANCELLED, EndReason.DECLINED, now)
            notify.queue_cancellation(
                game, reason=gettext_lazy("A player has deleted their account.")
            )
            logger.info("game %s cancelled: a player's account was erased", game.id)
            continue
        if game.status != GameStatus.ACTIVE:
            continue
        others = [
            s for s in game.seats.all() if s.user_id not in (None, user.id) and not s.resigned
        ]
        if not others or not bots.levels_of(game.rules):
            end_game(game, GameStatus.ABORTED, EndReason.ABANDONED, now)
            notify.queue_game_ended(game)
            logger.info("game %s abandoned: a player's account was erased", game.id)
        elif not row.bot:
            bots.hand_to_bot(
                game,
                row,
                why=bots.WHY_ERASED,
                now=now,
                actor=Actor.SERVICE,
                tell_player=False,
            )
