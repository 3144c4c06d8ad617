"""Followers' emails: a followed game ended, a followed player started a public game.

Both answer ``games.events`` signals inside the transaction of the game's change (the
game row locked), and queue through the one outbox (``notifications.outbox.queue_email``;
rendered when sent, in the follower's language). Each goes at most once per follower and
game: a followed game's row is marked told (``FollowedGame.told_at``), a start writes a
``StartNotice`` row, and the game's lock keeps two senders of one game in turn.

A follower's settings decide as for their own games: the ``game_over`` kind for an ended
game and ``game_started`` for a start, switched off, or by push (``games.news_channels``);
and their own switch, the ``followed`` kind (Settings, or the one-click ``List-Unsubscribe``
link every such email carries, which switches off only followers' news).
Nobody is told about a game they sit at (their own emails say it), nor about a person
either of the two has blocked. Public facts only: names, the result, the game's page.
"""

from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from accounts.languages import language_of
from accounts.models import User
from accounts.schedule import Channel, EmailKind
from accounts.unsubscribe import settings_url
from games.models import Game, GameStatus
from games.news_channels import queue_elsewhere
from games.notify.common import unsubscribe_headers
from games.notify.recipient import recipient_for
from games.queries import seats_in_order
from notifications.outbox import queue_email
from people.models import Block, Follow, FollowedGame, StartNotice

GAME_ENDED_TEMPLATE = "people/followed_game_ended"
PLAYER_STARTED_TEMPLATE = "people/followed_player_started"


def _people_link() -> str:
    return settings.SITE_URL + reverse("people:mine")


def _game_link(game: Game) -> str:
    return settings.SITE_URL + reverse("games:game", args=[game.id])


def _blocked_pairs(user_ids: set[int], others: set[int]) -> set[tuple[int, int]]:
    """The pairs (one of ``user_ids``, one of ``others``) with a block between them, either
    way, as (user, other). One query."""
    rows = Block.objects.filter(
        Q(blocker_id__in=user_ids, blocked_id__in=others)
        | Q(blocker_id__in=others, blocked_id__in=user_ids)
    ).values_list("blocker_id", "blocked_id")
    pairs = set()
    for blocker, blocked in rows:
        if blocker in user_ids:
            pairs.add((blocker, blocked))
        if blocked in user_ids:
            pairs.add((blocked, blocker))
    return pairs


def _queue(user: User, kind: EmailKind, game: Game, template: str, context: dict) -> bool:
    """Queue ``template`` for ``user`` as news of ``kind`` would go to them: not at all
    when they switched ``kind`` or followers' news (``followed``) off, by push where their
    channel says so (and push found a device), after their quiet hours (a follower's news
    wakes nobody); the email's one-click unsubscribe switches off followers' news. True if
    queued."""
    recipient = recipient_for(user, kind)
    followed = recipient_for(user, EmailKind.FOLLOWED)
    if not (recipient.wants and followed.wants):
        return False
    send_after = recipient.quiet_until(timezone.now())
    if recipient.channel != Channel.EMAIL:
        pushed = queue_elsewhere(game, user, kind, not_before=send_after)
        if pushed and recipient.channel == Channel.PUSH:
            return True
    queue_email(
        recipient.address,
        template,
        {
            **context,
            "game_name": game.rules.NAME,
            "link": _game_link(game),
            "people_link": _people_link(),
            "settings_link": settings_url(),
            "unsubscribe_link": followed.unsubscribe_link,
        },
        topic=f"game:{game.id}",
        send_after=send_after,
        headers=unsubscribe_headers(followed.unsubscribe_link),
        language=language_of(user),
    )
    return True


def tell_followers_game_ended(sender, *, game: Game, **kwargs) -> int:
    """``games.events.game_ended``: tell each follower of ``game`` that it ended (its
    winners when it finished). Claims the followers' rows first (``told_at``), so a second
    signal for the game tells nobody. Returns how many were told."""
    now = timezone.now()
    rows = list(
        FollowedGame.objects.select_for_update()
        .filter(game=game, told_at=None, user__erased_at=None)
        .select_related("user")
    )
    if not rows:
        return 0
    FollowedGame.objects.filter(pk__in=[row.pk for row in rows], told_at=None).update(told_at=now)
    seats = seats_in_order(game)
    seated = {seat.user_id for seat in seats if seat.user_id is not None}
    blocked = _blocked_pairs({row.user_id for row in rows}, seated)
    winners = (game.result or {}).get("winners", []) if game.status == GameStatus.FINISHED else []
    context = {
        "players": [seat.public_name for seat in seats],
        "winners": [seats[number].public_name for number in winners if number < len(seats)],
        "finished": game.status == GameStatus.FINISHED,
    }
    told = 0
    for row in rows:
        if row.user_id in seated or any((row.user_id, other) in blocked for other in seated):
            continue
        told += _queue(row.user, EmailKind.GAME_OVER, game, GAME_ENDED_TEMPLATE, context)
    return told


def tell_followers_game_started(sender, *, game: Game, **kwargs) -> int:
    """``games.events.game_started``: when ``game`` is public, tell the followers of its
    players (not those who sit at it) that it started, naming the players they follow
    (not one either of the two has blocked). One email per follower and game, whichever
    and however many of its players they follow (``StartNotice``). Returns how many."""
    if not game.public:
        return 0
    seats = seats_in_order(game)
    seated = {seat.user_id for seat in seats if seat.user_id is not None}
    follows = (
        Follow.objects.filter(player_id__in=seated, follower__erased_at=None)
        .exclude(follower_id__in=seated)
        .select_related("follower", "player")
    )
    followed: dict[int, list[User]] = {}
    followers: dict[int, User] = {}
    for follow in follows:
        followers[follow.follower_id] = follow.follower
        followed.setdefault(follow.follower_id, []).append(follow.player)
    if not followers:
        return 0
    told_before = set(
        StartNotice.objects.filter(game=game, follower_id__in=followers).values_list(
            "follower_id", flat=True
        )
    )
    blocked = _blocked_pairs(set(followers), seated)
    context = {"players": [seat.public_name for seat in seats]}
    told = 0
    for follower_id, follower in followers.items():
        if follower_id in told_before:
            continue
        theirs = {p.pk for p in followed[follower_id] if (follower_id, p.pk) not in blocked}
        if not theirs:
            continue
        StartNotice.objects.create(follower=follower, game=game)
        names = [str(seat.public_name) for seat in seats if seat.user_id in theirs]
        told += _queue(
            follower,
            EmailKind.GAME_STARTED,
            game,
            PLAYER_STARTED_TEMPLATE,
            {**context, "followed": names},
        )
    return told
