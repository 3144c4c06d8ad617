"""Watching games: who may look at a game (its players, staff, and for a public game anyone),
and the public games being played now or lately ended (docs/players.md "Watching games").

A watcher is a spectator of a public game who is neither a player of it nor staff: they see
the engine's view for nobody (``Game.table_view(None)``) and, in a blind game still being
played, no more of the log than every player at the table has seen
(``games.movelog.first_full_entry``). A game that is not public stays exactly as private as
before: ``not_found`` for anyone but its players and staff.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db.models import Prefetch, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ServiceError
from games import queries
from games.models import Game, GameStatus

# A public game can be watched once it has begun (before, its table holds nobody's cards
# and its invitees have not agreed to be seen), and after it ended, for its replay.
WATCHABLE = (GameStatus.ACTIVE, GameStatus.FINISHED, GameStatus.ABORTED)
# The page of public games lists the games that ended within this many days, and at most
# this many games of each kind in each of its two lists (the API pages through them all).
RECENTLY_ENDED_DAYS = 7
SHOWN_PER_LIST = 20


@dataclass(frozen=True)
class Viewing:
    """A game as one person looks at it: ``seat`` (None: no seat of theirs) and whether they
    are a ``watcher`` (no seat, not staff: the game is public)."""

    game: Game
    seat: int | None
    watcher: bool


def viewer_seat(game: Game, user) -> int | None:
    """The seat ``user`` (a person, or an anonymous visitor: none) holds in ``game``.

    Never a bot's own seat, which has no person: an anonymous visitor has no id either."""
    if not user.is_authenticated:
        return None
    return queries.seat_of(game, user)


def may_be_watched(game: Game) -> bool:
    """Whether anyone may watch ``game`` as a spectator: public, and begun (``WATCHABLE``)."""
    return game.public and game.status in WATCHABLE


def get_viewing(user, game_id, *, seats: Prefetch = queries.SEATS_WITH_USERS) -> Viewing:
    """``game_id`` as ``user`` (signed in or not) may look at it, its seats prefetched as
    ``seats`` (``queries.SEATS_WITH_USERS`` unless given): a player of it at their seat,
    staff at none, anyone else as a watcher of a public game that has begun.
    ``ServiceError("not_found")`` otherwise (a missing game, a private one, a public one not
    begun): the same answer every time, so ids cannot be probed. Two queries."""
    try:
        game = queries.game_with_seats(game_id, seats=seats)
    except ValidationError:  # not a game id at all
        game = None
    if game is not None:
        seat = viewer_seat(game, user)
        if seat is not None or (user.is_authenticated and user.is_staff):
            return Viewing(game, seat, watcher=False)
        if may_be_watched(game):
            return Viewing(game, None, watcher=True)
    raise ServiceError("not_found", _("No such game, or you are not a player of it."))


def still_watchable(game_id) -> bool:
    """Whether game ``game_id`` may still be watched (a watcher's live stream asks, and ends
    when the host made it private): one query on the primary key."""
    return Game.objects.filter(id=game_id, public=True, status__in=WATCHABLE).exists()


def public_games(*, kind: str | None = None, ended: bool = False) -> QuerySet[Game]:
    """The public games being played now (the latest move first), or with ``ended`` those
    that ended (finished or aborted) within ``RECENTLY_ENDED_DAYS`` (the latest end first);
    of one ``kind`` of game when given. Seats and their people prefetched (one query); the
    engine state (the largest column) left unread: a list never shows a table."""
    games = Game.objects.filter(public=True).defer("state")
    if ended:
        since = timezone.now() - timedelta(days=RECENTLY_ENDED_DAYS)
        games = games.filter(
            status__in=(GameStatus.FINISHED, GameStatus.ABORTED), ended_at__gte=since
        ).order_by("-ended_at", "-id")
    else:
        games = games.filter(status=GameStatus.ACTIVE).order_by("-updated_at", "-id")
    if kind is not None:
        games = games.filter(game=kind)
    return games.prefetch_related(queries.SEATS_WITH_PEOPLE)
