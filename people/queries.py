"""What a person reads of their people: whom they follow and block, which games they follow,
and what a player's page shows of them (docs/people.md). Read-only."""

from dataclasses import dataclass

from django.db.models import QuerySet

from accounts.models import User
from games.models import Game
from people.blocks import blocked_between
from people.models import Block, Follow, FollowedGame


def following_of(user: User) -> QuerySet[Follow]:
    """Whom ``user`` follows, newest first, each with the player (erased accounts left out)."""
    return (
        Follow.objects.filter(follower=user, player__erased_at=None)
        .select_related("player")
        .order_by("-created_at", "-id")
    )


def blocks_of(user: User) -> QuerySet[Block]:
    """Whom ``user`` has blocked, newest first, each with the person (never who blocked
    ``user``: that is the blocker's business)."""
    return (
        Block.objects.filter(blocker=user, blocked__erased_at=None)
        .select_related("blocked")
        .order_by("-created_at", "-id")
    )


def followed_games_of(user: User) -> QuerySet[FollowedGame]:
    """The games ``user`` follows, newest first, each with the game (its state unread)."""
    return (
        FollowedGame.objects.filter(user=user)
        .select_related("game")
        .defer("game__state")
        .order_by("-created_at", "-id")
    )


@dataclass(frozen=True)
class Relation:
    """How the reader stands to a player, for the player page's buttons: whether they
    follow them, have blocked them, and may challenge them (neither themself nor anyone
    either of the two has blocked: a blocked person sees no button and learns nothing)."""

    follows: bool
    blocks: bool
    can_challenge: bool


def relation(reader: User, player: User) -> Relation:
    """``reader``'s relation to ``player`` (two or three queries)."""
    if reader.pk == player.pk:
        return Relation(follows=False, blocks=False, can_challenge=False)
    follows = Follow.objects.filter(follower=reader, player=player).exists()
    blocks = Block.objects.filter(blocker=reader, blocked=player).exists()
    meets = not blocks and not blocked_between(reader.pk, player.pk)
    return Relation(follows=follows, blocks=blocks, can_challenge=meets)


def follows_game(user: User, game: Game) -> bool:
    return FollowedGame.objects.filter(user=user, game=game).exists()
