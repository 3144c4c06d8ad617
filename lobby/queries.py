"""Reading the lobby: which open games a person sees, which they can join, the filters.

A person sees the open games still waiting for players (open, not past their time) where
nobody they may not meet (``people.blocks``) and nobody suspended holds a seat; whether
they can join one is the same test ``lobby.actions.do_join_open_game`` makes (the
language they read, their rating at the game, not seated there yet).
"""

from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db.models import Case, Count, Exists, OuterRef, Q, QuerySet, Value, When
from django.utils import timezone

from accounts.languages import language_of
from accounts.models import User
from games.catalogue import kinds
from games.models import GameStatus, Seat
from lobby.actions import MAX_RATING, not_open, rating_at
from lobby.models import Closed, OpenGame
from people.blocks import blocked_ids
from ratings.models import DISPLAY_CENTRE, Rating, display_rating


@dataclass(frozen=True)
class LobbyFilters:
    """What a person narrows the lobby to; None: any."""

    game: str | None = None
    players: int | None = None
    rated: bool | None = None
    # A language code: the games for readers of it, and those for anyone.
    language: str | None = None
    can_join: bool | None = None


def visible_open_games(viewer: User, now: datetime | None = None) -> QuerySet[OpenGame]:
    """The open games ``viewer`` sees in the lobby, newest first."""
    now = now or timezone.now()
    avoided = blocked_ids(viewer.pk)
    seat_of = Seat.objects.filter(game=OuterRef("game"))
    return (
        OpenGame.objects.filter(
            closed=Closed.OPEN, expires_at__gt=now, game__status=GameStatus.INVITED
        )
        .exclude(Exists(seat_of.filter(user_id__in=avoided)))
        .exclude(Exists(seat_of.filter(_suspended_seat_q(now))))
        .order_by("-created_at")
    )


def _suspended_seat_q(now: datetime) -> Q:
    """A seat whose person is suspended at ``now`` (``User.suspended_q``, from the seat)."""
    return Q(user__suspended_at__isnull=False) & (
        Q(user__suspended_until__isnull=True) | Q(user__suspended_until__gt=now)
    )


def joinable_q(viewer: User, reader_language: str | None, now: datetime) -> Q:
    """The open games ``viewer`` could join now (among those they see): not theirs, no seat
    there, their language and rating as asked. Nothing for a suspended person."""
    if viewer.is_suspended(now):
        return Q(pk__in=[])
    reads = language_of(viewer, fallback=reader_language)
    by_rating = Q()
    for kind in kinds():
        rating = rating_at(viewer, kind)
        by_rating |= Q(game__game=kind) & Q(
            Q(rating_min__isnull=True) | Q(rating_min__lte=rating),
            Q(rating_max__isnull=True) | Q(rating_max__gte=rating),
        )
    seated = Seat.objects.filter(game=OuterRef("game"), user=viewer)
    return (
        ~Q(game__host=viewer)
        & ~Q(Exists(seated))
        & (Q(language="") | Q(language=reads))
        & by_rating
    )


def lobby(
    viewer: User, filters: LobbyFilters, *, reader_language: str | None = None
) -> QuerySet[OpenGame]:
    """The lobby as ``viewer`` sees it, narrowed by ``filters``: each open game with its
    game, host and seats, ``taken`` (seats taken) and ``joinable`` (``joinable_q``)."""
    now = timezone.now()
    games = visible_open_games(viewer, now)
    if filters.game is not None:
        games = games.filter(game__game=filters.game)
    if filters.players is not None:
        games = games.filter(seats=filters.players)
    if filters.rated is not None:
        games = games.filter(game__rated=filters.rated)
    if filters.language is not None:
        games = games.filter(language__in=["", filters.language])
    joinable = joinable_q(viewer, reader_language, now)
    if filters.can_join is not None:
        games = games.filter(joinable) if filters.can_join else games.exclude(joinable)
    return (
        games.select_related("game", "game__host")
        .prefetch_related("game__seats__user")
        .annotate(
            taken=Count("game__seats"),
            # The same test as the filter above, as a column.
            joinable=Case(When(joinable, then=Value(True)), default=Value(False)),
        )
    )


def host_ratings(open_games) -> dict[tuple[int, str], int]:
    """The displayed rating of each open game's host at its game, by (host id, kind), in
    one query; ``DISPLAY_CENTRE`` for a host who has not played it rated."""
    wanted = {(row.game.host_id, row.game.game) for row in open_games}
    found = {
        (rating.user_id, rating.kind): display_rating(rating.mu, rating.sigma)
        for rating in Rating.objects.filter(user_id__in={host for host, _kind in wanted})
    }
    return {key: found.get(key, DISPLAY_CENTRE) for key in wanted}


def open_game_for(viewer: User, game_id) -> OpenGame:
    """One open game as ``viewer`` may see it in the lobby (``visible_open_games``), with
    ``taken`` and ``joinable``; ``not_found`` otherwise (the same for one they may not meet)."""
    try:
        found = lobby(viewer, LobbyFilters()).filter(pk=game_id).first()
    except ValidationError:
        found = None
    if found is None:
        raise not_open()
    return found


def rating_bounds(open_game: OpenGame) -> tuple[int, int] | None:
    """The rating range ``open_game`` asks for, open ends filled in; None: anyone."""
    if open_game.rating_min is None and open_game.rating_max is None:
        return None
    low = open_game.rating_min if open_game.rating_min is not None else 0
    high = open_game.rating_max if open_game.rating_max is not None else MAX_RATING
    return low, high
