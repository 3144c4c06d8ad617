"""The one writer of ratings: a finished game's update, and the rebuild from the records.

``rate_game`` runs inside the transaction that finishes the game (``games.events``'s
``game_ended``, connected in ``RatingsConfig.ready``), under the game row's lock; it rates
a game once however often it is asked (a ``RatingChange`` row per player is the mark).
``rebuild`` recomputes every rating from the finished games in the order they finished,
through the same ``rate_game``: so it gives the same numbers as the live updates did.
"""

import logging
from collections.abc import Callable

from django.db import transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from accounts.models import User
from games.models import Game, GameStatus, Seat, SeatChange

from . import skill
from .models import PROVISIONAL_GAMES, Rating, RatingChange

logger = logging.getLogger(__name__)

# How many of a player's latest changes per game the player page and the API show.
HISTORY = 50


def is_rated(game: Game, seats: list[Seat]) -> bool:
    """``game`` moves ratings: finished (not aborted or cancelled), with a result, chosen
    rated, and every seat a person's (a stand-in bot plays for its person, who is rated; a
    bot's own seat makes the game unrated)."""
    return (
        game.status == GameStatus.FINISHED
        and game.rated
        and bool(game.result)
        and len(seats) >= 2
        and all(seat.user_id is not None for seat in seats)
    )


def substituted_seats(game: Game) -> set[int]:
    """The seats of ``game`` a substitute took over (``SeatChange`` ``substituted``)."""
    return set(
        SeatChange.objects.filter(game=game, kind=SeatChange.Kind.SUBSTITUTED).values_list(
            "seat", flat=True
        )
    )


def rate_game(game: Game) -> list[RatingChange]:
    """Update the ratings of ``game``'s players from its result, if it is rated and not
    rated yet; the changes written (none otherwise). Call inside a transaction (the one
    that finished the game, or the rebuild's)."""
    seats = list(Seat.objects.filter(game=game).order_by("seat"))
    if not is_rated(game, seats) or RatingChange.objects.filter(game=game).exists():
        return []
    # A seat a substitute took over is rated for nobody: the substitute joined midway, its
    # player before left it; the others are rated among themselves (docs/ratings.md).
    taken_over = substituted_seats(game)
    seats = [seat for seat in seats if seat.seat not in taken_over]
    if len(seats) < 2:
        return []
    assert game.result is not None  # is_rated checked it
    at = game.ended_at or timezone.now()
    kind = str(game.game)
    users = [seat.user_id for seat in seats if seat.user_id is not None]  # all: is_rated
    # A first rated game creates the row; ignore_conflicts so two games finishing at once
    # for a new player do not collide, then lock the rows in one order (no deadlock).
    Rating.objects.bulk_create(
        [
            Rating(user_id=user, kind=kind, mu=skill.MU, sigma=skill.SIGMA, updated_at=at)
            for user in users
        ],
        ignore_conflicts=True,
    )
    locked = Rating.objects.select_for_update().filter(kind=kind, user_id__in=users)
    rows = {row.user_id: row for row in locked.order_by("user_id")}
    places = skill.ranks_of(game.result, [seat.seat for seat in seats])
    before = [(rows[user].mu, rows[user].sigma) for user in users]
    after = skill.rate(before, [places[seat.seat] for seat in seats])
    changes = []
    for seat, user, (mu_before, sigma_before), (mu, sigma) in zip(
        seats, users, before, after, strict=True
    ):
        row = rows[user]
        row.mu, row.sigma, row.games, row.updated_at = mu, sigma, row.games + 1, at
        changes.append(
            RatingChange(
                game=game,
                user_id=user,
                kind=kind,
                rank=places[seat.seat],
                players=len(seats),
                mu_before=mu_before,
                sigma_before=sigma_before,
                mu_after=mu,
                sigma_after=sigma,
                games=row.games,
                at=at,
            )
        )
    # One statement for the locked rows: an upsert on (user, kind), which finds each row
    # (created above if missing), not bulk_update(), whose CASE WHEN per field and row
    # was a fifth of the Python calls of the move that ends a game (decision 0009).
    Rating.objects.bulk_create(
        [
            Rating(
                user_id=user, kind=kind, mu=row.mu, sigma=row.sigma, games=row.games, updated_at=at
            )
            for user, row in rows.items()
        ],
        update_conflicts=True,
        unique_fields=["user", "kind"],
        update_fields=["mu", "sigma", "games", "updated_at"],
    )
    return RatingChange.objects.bulk_create(changes)


def on_game_ended(sender, game: Game, **kwargs) -> None:
    """``games.events.game_ended``: rate a finished game in the transaction that ended it.

    In a savepoint: should rating fail, the game still ends (the error is logged, and
    ``manage.py rebuild_ratings`` rates it later) rather than the player's move failing."""
    if game.status != GameStatus.FINISHED:
        return
    try:
        with transaction.atomic():
            rate_game(game)
    except Exception:
        logger.exception("game %s: rating failed; rebuild_ratings will rate it", game.id)


def rated_games():
    """Every game a rebuild rates, in the order they finished (ties by id: always the same)."""
    return (
        Game.objects.filter(status=GameStatus.FINISHED, rated=True)
        .exclude(ended_at=None)
        .order_by("ended_at", "id")
    )


def rebuild(progress: Callable[[int, int], None] | None = None) -> int:
    """Forget every rating and compute them again from the finished games, in the order
    they finished, in one transaction; the number of games rated. ``progress(done,
    total)`` is called as it goes."""
    with transaction.atomic():
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        games = rated_games()
        total = games.count()
        rated = 0
        for done, game in enumerate(games.iterator(chunk_size=500), start=1):
            rated += bool(rate_game(game))
            if progress is not None:
                progress(done, total)
    return rated


def leaderboard(kind: str) -> QuerySet[Rating]:
    """``kind``'s established players (``PROVISIONAL_GAMES`` rated games or more; no erased
    account), best displayed rating first (then more games, then the older account)."""
    return (
        Rating.objects.filter(kind=kind, games__gte=PROVISIONAL_GAMES, user__erased_at=None)
        .select_related("user")
        .order_by((F("mu") - 3 * F("sigma")).desc(), "-games", "user_id")
    )


def ratings_of(user: User, *, history: int = HISTORY) -> list[tuple[Rating, list[RatingChange]]]:
    """``user``'s rating per game kind with its last ``history`` changes, newest first."""
    return [
        (rating, list(history_of(user, rating.kind)[:history]))
        for rating in Rating.objects.filter(user=user).order_by("kind")
    ]


def history_of(user: User, kind: str) -> QuerySet[RatingChange]:
    """``user``'s rating changes at ``kind``, newest first."""
    return RatingChange.objects.filter(user=user, kind=kind).order_by("-at", "-id")
