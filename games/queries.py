"""Read access to games: which games a user may see, and which seat they hold."""

from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db.models import (
    Count,
    DateTimeField,
    Expression,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    Subquery,
    Value,
    prefetch_related_objects,
)
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User, Vacation
from core.errors import ServiceError
from games.models import Game, GameStatus, Move, Seat


class ServiceNow(Expression):
    """The service's clock (``timezone.now``) as a query parameter, read when the query
    runs, not when it is built: module-level querysets stay current, and tests that move
    time with ``time_machine`` move it too (the database's own NOW() would not)."""

    output_field = DateTimeField()

    def as_sql(self, compiler, connection):
        return compiler.compile(Value(timezone.now(), output_field=DateTimeField()))


def _vacation_running(user_ref: str):
    """The end of the vacation of the user ``user_ref`` names that runs when the query
    runs, or NULL."""
    now = ServiceNow()
    running = Vacation.objects.filter(user=OuterRef(user_ref), starts_at__lte=now, ends_at__gt=now)
    return Subquery(running.order_by("-ends_at").values("ends_at")[:1])


def _seats_with_users():
    return Seat.objects.select_related("user", "user__notification_settings").annotate(
        on_vacation_until=_vacation_running("user_id")
    )


# A game's seats with their users, each seat annotated with ``on_vacation_until`` (what
# the other players see) and each user with their notification settings (the deadline
# and the emails read them): one query for all of it, however many seats.
SEATS_WITH_USERS = Prefetch("seats", queryset=_seats_with_users())


def game_with_seats(game_id, *, lock: bool = False) -> Game | None:
    """The game with its seats prefetched as ``SEATS_WITH_USERS``, or None when there is no
    such game. Two queries: the game row, then its seats with users, settings and running
    vacations.

    With ``lock``, the game row is locked until the caller's transaction ends, as by
    ``games.actions.common.lock_game`` (inside ``transaction.atomic`` only); the seats
    are read, not changed, by a move, so only the game row is locked.
    """
    games = Game.objects.prefetch_related(SEATS_WITH_USERS)
    if lock:
        games = games.select_for_update()
    try:
        return games.get(id=game_id)
    except Game.DoesNotExist:
        return None


def seats_in_order(game: Game) -> list[Seat]:
    """The game's seats by number, each with its user: those read with the game (as
    ``SEATS_WITH_USERS``) when it was, else read now in one query (and kept on ``game``)."""
    prefetch_related_objects(
        [game], Prefetch("seats", queryset=Seat.objects.select_related("user"))
    )
    return sorted(game.seats.all(), key=lambda seat: seat.seat)


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


def games_waiting_on(user: User):
    """The active games whose current seat ``user`` plays themself: it is their turn.

    A seat a stand-in bot plays for them is the bot's turn, not theirs. One condition on
    one seat row (the same join for user and seat number), for ``pk__in`` subqueries.
    """
    return Game.objects.filter(
        status=GameStatus.ACTIVE,
        seats__user=user,
        seats__seat=F("current_seat"),
        seats__bot="",
    )


def next_game_waiting_on(user: User, *, excluding=None) -> Game | None:
    """The game where it is ``user``'s turn (``games_waiting_on``) with the nearest
    deadline, or None: "Next game". A paused game (no deadline) comes after every clocked
    one; equal deadlines, the turn that began first. ``excluding``: a game id left out
    (the table the player is at). One query."""
    waiting = Game.objects.filter(pk__in=games_waiting_on(user).values("pk"))
    if excluding is not None:
        waiting = waiting.exclude(pk=excluding)
    return (
        waiting.defer("state")
        .order_by(
            F("deadline").asc(nulls_last=True), F("turn_started_at").asc(nulls_last=True), "id"
        )
        .first()
    )


def games_visible_to(user: User):
    """The games ``user`` may see: their own seats' games; every game for staff."""
    if user.is_staff:
        return Game.objects.prefetch_related(SEATS_WITH_USERS)
    return games_of(user)


def get_visible_game(user: User, game_id) -> Game:
    """The game with its seats (as ``SEATS_WITH_USERS``), or ``ServiceError("not_found")``
    when it is missing or not the user's to see (``games_visible_to``). Two queries.

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


# A deadline sweep runs every minute (SWEEP_SECONDS); a game still waiting this long after
# its deadline was not handled, so the sweep or its worker is failing.
OVERDUE_GRACE = timedelta(minutes=15)


def overdue(now: datetime) -> Q:
    """Active games whose deadline passed more than ``OVERDUE_GRACE`` before ``now``: the
    admin dashboard's alarm and the game admin's filter, which its tile links to."""
    return Q(status=GameStatus.ACTIVE, deadline__lt=now - OVERDUE_GRACE)
