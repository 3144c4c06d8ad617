"""The only writer of people's rows: following players and games, blocking, and what a
person's erasure removes (docs/people.md).

Each ``do_*`` is one transaction and harmless to repeat: following twice follows once,
unfollowing someone not followed changes nothing. Refusals are ``ServiceError`` and
change nothing.
"""

import logging
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import ServiceError
from games.models import Game, GameStatus, Seat
from people.models import Block, Follow, FollowedGame, StartNotice

logger = logging.getLogger(__name__)

# A person follows at most this many players, blocks at most this many, and follows at most
# this many games: the lists stay a page long, and nobody builds a mailing list of strangers.
MAX_FOLLOWS = 500
MAX_BLOCKS = 1000
MAX_FOLLOWED_GAMES = 200


def _player(public_id) -> User:
    """The living person whose page address is ``public_id``; ``not_found`` otherwise
    (a deleted account's page is gone for following and blocking alike)."""
    player = None
    if isinstance(public_id, str):
        player = User.objects.filter(public_id=public_id, erased_at=None).first()
    if player is None:
        raise ServiceError("not_found", _("No player has this page."))
    return player


def _refuse_oneself(user: User, player: User, sentence: str) -> None:
    if user.pk == player.pk:
        raise ServiceError("invalid", sentence)


def _lock_person(user: User) -> None:
    """Lock ``user``'s row: their follows and blocks are counted and written one request at
    a time, so two requests at once cannot both slip under a limit."""
    User.objects.select_for_update().filter(pk=user.pk).first()


def _created(model, limit: int, over: str, **fields):
    """The row of ``model`` with ``fields`` (the first field the person's) and whether it
    is new: created unless it exists; ``conflict`` (``over``) when the person holds
    ``limit`` already. Inside the caller's transaction, the person's row locked."""
    owner_field = next(iter(fields))
    existing = model.objects.filter(**fields).first()
    if existing is not None:
        return existing, False
    if model.objects.filter(**{owner_field: fields[owner_field]}).count() >= limit:
        raise ServiceError("conflict", over % {"count": limit})
    try:
        # A savepoint: a row written by a request that did not lock the person (none
        # should) fails alone, and the row it wrote is the answer.
        with transaction.atomic():
            return model.objects.create(**fields), True
    except IntegrityError:
        return model.objects.get(**fields), False


def do_follow(user: User, public_id) -> tuple[Follow, bool]:
    """``user`` follows the player whose page address is ``public_id``: they are then told
    when that player starts a public game. Following again is harmless (the same row).
    Returns the row and whether it is new.

    Refuses ``not_found`` (no such living player), ``invalid`` (oneself), ``conflict``
    (``MAX_FOLLOWS`` followed already). Following someone who blocked you is accepted as
    any other and tells you nothing: the block only keeps their news from you.
    """
    player = _player(public_id)
    _refuse_oneself(user, player, _("You cannot follow yourself."))
    with transaction.atomic():
        _lock_person(user)
        return _created(
            Follow,
            MAX_FOLLOWS,
            _("You follow %(count)d players already; unfollow some first."),
            follower=user,
            player=player,
        )


def do_unfollow(user: User, public_id) -> bool:
    """``user`` stops following that player; True if they did follow them. An unknown
    page address is ``not_found``; not following them is no error."""
    player = _player(public_id)
    deleted, _rows = Follow.objects.filter(follower=user, player=player).delete()
    return bool(deleted)


def do_block(user: User, public_id) -> tuple[Block, bool]:
    """``user`` blocks the player whose page address is ``public_id``: the two never meet
    (no invitation either way, no pairing, their table talk hidden from ``user``), and
    ``user`` stops following them. Blocking again is harmless. The blocked person is not
    told, and nothing they can see changes because of it. Returns the row and whether it
    is new.

    Refuses ``not_found``, ``invalid`` (oneself), ``conflict`` (``MAX_BLOCKS`` already).
    """
    player = _player(public_id)
    _refuse_oneself(user, player, _("You cannot block yourself."))
    with transaction.atomic():
        _lock_person(user)
        block, created = _created(
            Block,
            MAX_BLOCKS,
            _("You have blocked %(count)d players already; unblock some first."),
            blocker=user,
            blocked=player,
        )
        # Their follow of you stays (removing it would tell them); yours of them goes.
        Follow.objects.filter(follower=user, player=player).delete()
    logger.info("user %s blocked user %s", user.pk, player.pk)
    return block, created


def do_unblock(user: User, public_id) -> bool:
    """``user`` lifts their block of that player; True if there was one. Only the blocker
    lifts a block: a block the other made stays."""
    player = _player(public_id)
    deleted, _rows = Block.objects.filter(blocker=user, blocked=player).delete()
    return bool(deleted)


def _followable_game(user: User, game_id) -> Game:
    """The game ``user`` may follow: a public game being played that they hold no seat in.

    ``conflict`` for a seat-holder (its emails reach them already); ``not_found`` for a
    missing game, a private one, or a public one not begun (its invitees have not agreed
    to be watched yet: as a spectator is answered); ``game_not_active`` once it ended."""
    try:
        game = Game.objects.defer("state").filter(id=game_id).first()
    except ValidationError:  # a malformed id reads as a missing game
        game = None
    if game is not None and Seat.objects.filter(game=game, user=user).exists():
        raise ServiceError("conflict", _("You play in this game: its news reaches you already."))
    if game is None or not game.public or game.status == GameStatus.INVITED:
        raise ServiceError("not_found", _("No such game, or it is not public."))
    if game.status != GameStatus.ACTIVE:
        raise ServiceError("game_not_active", _("This game is over; there is nothing to follow."))
    return game


def do_follow_game(user: User, game_id) -> tuple[FollowedGame, bool]:
    """``user`` follows a public game they hold no seat in: told by email when it ends.
    Following again is harmless. Returns the row and whether it is new. Refusals: see
    ``_followable_game``; ``conflict`` past ``MAX_FOLLOWED_GAMES`` followed games."""
    game = _followable_game(user, game_id)
    with transaction.atomic():
        _lock_person(user)
        return _created(
            FollowedGame,
            MAX_FOLLOWED_GAMES,
            _("You follow %(count)d games already; unfollow some first."),
            user=user,
            game=game,
        )


def do_unfollow_game(user: User, game_id) -> bool:
    """``user`` stops following that game; True if they did. Not following it is no error
    (nor is a game that does not exist: there is nothing to stop)."""
    try:
        deleted, _rows = FollowedGame.objects.filter(user=user, game_id=game_id).delete()
    except ValidationError:  # a malformed id: nothing is followed by it
        return False
    return bool(deleted)


def erase_people(user: User, now: datetime) -> None:
    """A person's erasure (``accounts.erasure.erasing_account``, in its transaction): their
    follows, blocks and followed games go, both ways (nobody follows or blocks a deleted
    account), and the notices that kept their emails to once."""
    Follow.objects.filter(Q(follower=user) | Q(player=user)).delete()
    Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()
    FollowedGame.objects.filter(user=user).delete()
    StartNotice.objects.filter(follower=user).delete()
