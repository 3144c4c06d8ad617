"""Read access to games: which games a user may see, and which seat they hold."""

from datetime import datetime

from django.core.exceptions import ValidationError
from django.db.models import (
    Count,
    DateTimeField,
    Expression,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _
from piratz_site.prepared import PreparedQuery

from accounts.models import User, Vacation
from core.errors import ServiceError
from games.models import Game, Move, Seat


class ServiceNow(Expression):
    """The service's clock (``timezone.now``) as a query parameter, read when the query
    runs, not when it is built: module-level querysets stay current, and tests that move
    time with ``time_machine`` move it too (the database's own NOW() would not)."""

    output_field = DateTimeField()

    def as_sql(self, compiler, connection):
        return compiler.compile(Value(timezone.now(), output_field=DateTimeField()))


def _vacation_running(user_ref: str, now=None):
    """The end of the vacation of the user ``user_ref`` names that runs ``now`` (default:
    when the query runs), or NULL."""
    now = ServiceNow() if now is None else now
    running = Vacation.objects.filter(user=OuterRef(user_ref), starts_at__lte=now, ends_at__gt=now)
    return Subquery(running.order_by("-ends_at").values("ends_at")[:1])


def _seats_with_users(now=None):
    return Seat.objects.select_related("user", "user__notification_settings").annotate(
        on_vacation_until=_vacation_running("user_id", now)
    )


# A game's seats with their users, each seat annotated with ``on_vacation_until`` (what
# the other players see) and each user with their notification settings (the deadline
# and the emails read them): one query for all of it, however many seats.
SEATS_WITH_USERS = Prefetch("seats", queryset=_seats_with_users())


def _game_with_seats_query(*, lock: bool) -> PreparedQuery:
    def build(game_id, now):
        seats = _seats_with_users(now).select_related("game").filter(game_id=game_id)
        # Only the game row: the seats and users are read, not changed, by a move.
        return seats.select_for_update(of=("game",)) if lock else seats

    return PreparedQuery(build, game_id=Seat._meta.get_field("game"), now=DateTimeField())


# A game and its seats in one query (the seats' rows joined to the game's), compiled once
# per connection: what every move (locking the game row) and game GET read first.
_GAME_WITH_SEATS = _game_with_seats_query(lock=False)
_LOCKED_GAME_WITH_SEATS = _game_with_seats_query(lock=True)


def game_with_seats(game_id, *, lock: bool = False) -> Game | None:
    """The game with its seats prefetched as ``SEATS_WITH_USERS`` does, in one query, or
    None when there is no such game (nor, then, for a game without seats: every game has
    its players' seats from its creation on).

    With ``lock``, the game row is locked until the caller's transaction ends, as by
    ``games.actions.common.lock_game`` (inside ``transaction.atomic`` only).
    """
    query = _LOCKED_GAME_WITH_SEATS if lock else _GAME_WITH_SEATS
    seats = query.fetch(game_id=game_id, now=timezone.now())
    if not seats:
        return None
    game = seats[0].game  # each row brought its own copy of the game: one serves all
    _attach_seats(game, seats)
    return game


def _attach_seats(game: Game, seats: list[Seat]) -> None:
    # ``game`` is fresh from the query: nothing else is prefetched on it.
    for seat in seats:
        Seat.game.field.set_cached_value(seat, game)
    # What Django's prefetch_related leaves on the instance: a done queryset of the rows.
    related = game.seats.all()
    related._result_cache, related._prefetch_done = seats, True
    game._prefetched_objects_cache = {"seats": related}


def vacation_until(user_id: int) -> datetime | None:
    """The end of ``user_id``'s vacation running now, or None.

    One query; seats read through ``SEATS_WITH_USERS`` carry it as ``on_vacation_until``.
    """
    now = timezone.now()
    running = Vacation.objects.filter(user_id=user_id, starts_at__lte=now, ends_at__gt=now)
    return running.order_by("-ends_at").values_list("ends_at", flat=True).first()


def games_of(user: User):
    """The games ``user`` holds a seat in (staff included), seats and users prefetched."""
    return Game.objects.filter(seats__user=user).prefetch_related(SEATS_WITH_USERS)


def games_visible_to(user: User):
    """The games ``user`` may see: their own seats' games; every game for staff."""
    if user.is_staff:
        return Game.objects.prefetch_related(SEATS_WITH_USERS)
    return games_of(user)


def get_visible_game(user: User, game_id) -> Game:
    """The game with its seats (as ``SEATS_WITH_USERS``), or ``ServiceError("not_found")``
    when it is missing or not the user's to see (``games_visible_to``). One query.

    Outsiders get the same answer as for a missing game, so ids cannot be probed.
    """
    try:
        game = game_with_seats(game_id)
    except ValidationError:  # not a game id at all
        game = None
    if game is None or not (user.is_staff or seat_of(game, user) is not None):
        raise ServiceError("not_found", _("No such game, or you are not a player of it."))
    return game


def seat_of(game: Game, user: User) -> int | None:
    """The seat ``user`` holds in ``game``, or None (uses the prefetched seats if present)."""
    for seat in game.seats.all():
        if seat.user_id == user.id:
            return seat.seat
    return None


# --- Counts and names for the moderators' lists (games/admin.py, accounts/admin.py) ---------
# Subqueries, not joins with COUNT: the admin's search joins seats, and a join would
# multiply the counts; each is one correlated subquery per listed row, on indexed keys.


def automatic_moves_of_game(game_ref: str = "pk") -> Coalesce:
    """How many moves the service played (rules P24) in the game ``game_ref`` names."""
    moves = Move.objects.filter(game=OuterRef(game_ref), automatic=True).order_by()
    return Coalesce(
        Subquery(moves.values("game").annotate(n=Count("id")).values("n")[:1]),
        0,
        output_field=IntegerField(),
    )


def automatic_moves_of_player(user_ref: str = "pk") -> Coalesce:
    """How many moves the service played in the seats of the user ``user_ref`` names."""
    moves = Move.objects.filter(
        automatic=True, game__seats__user=OuterRef(user_ref), game__seats__seat=F("seat")
    ).order_by()
    return Coalesce(
        Subquery(moves.values("game__seats__user").annotate(n=Count("id")).values("n")[:1]),
        0,
        output_field=IntegerField(),
    )


def player_to_move() -> Subquery:
    """For a query of games: the email of the player each is waiting on (NULL: nobody)."""
    seat = Seat.objects.filter(game=OuterRef("pk"), seat=OuterRef("current_seat"))
    return Subquery(seat.values("user__email")[:1])
