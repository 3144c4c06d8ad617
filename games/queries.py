"""Read access to games: which games a user may see, and which seat they hold."""

from datetime import datetime, timedelta
from operator import attrgetter

from django.core.exceptions import ValidationError
from django.db import connections, router
from django.db.models import (
    Count,
    DateTimeField,
    Expression,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    prefetch_related_objects,
)
from django.db.models.functions import Coalesce
from django.db.transaction import TransactionManagementError
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User, Vacation
from core import sql
from core.errors import ServiceError
from games.models import Game, GameStatus, Move, Seat


class RunningVacationEnd(Expression):
    """The end of the vacation of the user whose id ``user_ref`` names that runs when the
    query runs (``timezone.now``), or NULL: one correlated subquery, written out once.

    The ORM's ``Subquery(Vacation.objects.filter(user=OuterRef(...), ...))`` said the same,
    but Django compiled that inner queryset afresh on every evaluation, and this
    annotation rides on the seats query of every move and every game GET: its compiling
    was a fifth of the seats query's Python calls (decision 0009). The clock is read when
    the query is compiled, not when it is built: module-level querysets stay current, and
    tests that move time with ``time_machine`` move it too (the database's NOW() would not).
    """

    output_field = DateTimeField()

    def __init__(self, user_ref: str):
        super().__init__(output_field=DateTimeField())
        self.user = F(user_ref)

    def get_source_expressions(self):
        return [self.user]

    def set_source_expressions(self, exprs):
        (self.user,) = exprs

    def as_sql(self, compiler, connection):
        user_sql, user_params = compiler.compile(self.user)

        def column(name: str) -> str:
            return sql.column(Vacation, name, connection)

        now = Vacation._meta.get_field("ends_at").get_db_prep_value(timezone.now(), connection)
        query = (
            f"(SELECT {column('ends_at')} FROM {sql.table(Vacation, connection)}"
            f" WHERE {column('user')} = {user_sql}"
            f" AND {column('starts_at')} <= %s AND {column('ends_at')} > %s"
            f" ORDER BY {column('ends_at')} DESC LIMIT 1)"
        )
        return query, (*user_params, now, now)


class SeatsSortedHere(QuerySet):
    """Seats read without ``ORDER BY`` that iterate in ``Seat``'s order (game, then seat
    number), sorted in Python: the seats the reads below prefetch for every move and game
    GET, so ``game.seats.all()`` comes in seat order as the model's ordering promises.

    Django 6.1 compiles an ordered query by hashing every column it selects, to find the
    ones the ordering names: about 750 Python calls for a game's seats with their people,
    against a few dozen to sort four rows (decision 0009). For prefetching: iterate it
    (``list``, ``for``); indexing and ``first()`` see the database's order.
    """

    def __iter__(self):
        return iter(sorted(super().__iter__(), key=attrgetter("game_id", "seat")))


# Seat rows alone, in seat order: what every seats read below starts from.
_SEATS: QuerySet[Seat] = SeatsSortedHere(Seat).order_by()
# Seats with their users, each seat annotated with ``on_vacation_until`` (what the other
# players see): the shared part of the two reads below.
_SEATS_WITH_PEOPLE_AND_VACATIONS = _SEATS.select_related("user").annotate(
    on_vacation_until=RunningVacationEnd("user_id")
)
# A game's seats with their users, each seat annotated with ``on_vacation_until`` and each
# user with their notification settings (the deadline and the emails read them): one
# query for all of it, however many seats.
SEATS_WITH_USERS = Prefetch(
    "seats", queryset=_SEATS_WITH_PEOPLE_AND_VACATIONS.select_related("user__notification_settings")
)
# The same without the users' notification settings: for an answer that shows the seats
# to a reader, as a game GET, and writes nothing that the settings steer (deadlines, emails).
SEATS_TO_SHOW = Prefetch("seats", queryset=_SEATS_WITH_PEOPLE_AND_VACATIONS)
# A game's seats with their users and nothing more: for lists that name the people at
# many games (My games) and read neither their settings nor their vacations.
SEATS_WITH_PEOPLE = Prefetch("seats", queryset=_SEATS.select_related("user"))
# A game's seat rows alone (who holds which seat, by user id): for an answer that names
# nobody, as the move log; no join, so it costs a log GET about 2,000 fewer Python calls.
SEAT_ROWS = Prefetch("seats", queryset=_SEATS)


def game_with_seats(
    game_id, *, lock: bool = False, seats: Prefetch = SEATS_WITH_USERS
) -> Game | None:
    """The game with its seats prefetched as ``seats`` (``SEATS_WITH_USERS`` unless given),
    or None when there is no such game. Two queries: the game row, then its seats as
    ``seats`` reads them. ``ValidationError`` when ``game_id`` is no game id at all.

    With ``lock``, the game row is locked until the caller's transaction ends, as by
    ``games.actions.common.lock_game`` (inside ``transaction.atomic`` only); the seats
    are read, not changed, by a move, so only the game row is locked.

    The game row is read by its primary key in SQL written out once (``raw``): the ORM
    compiled ``Game.objects.get(id=...)`` afresh for every move and game GET, about as many
    Python calls as building the instance (decision 0009). Django still builds the
    instance (every column, its converters) and prefetches the seats.
    """
    connection = connections[(router.db_for_write if lock else router.db_for_read)(Game)]
    if lock and connection.get_autocommit():
        # What the ORM's select_for_update() refuses too: a lock no transaction holds.
        raise TransactionManagementError("game_with_seats(lock=True) needs transaction.atomic")
    key = Game._meta.pk
    assert key is not None
    by_id = sql.column(Game, key.name, connection)
    query = f"SELECT * FROM {sql.table(Game, connection)} WHERE {by_id} = %s"
    if lock and connection.features.has_select_for_update:
        query += " FOR UPDATE"  # SQLite: the IMMEDIATE transaction already serialises writers
    params = [key.get_db_prep_value(key.to_python(game_id), connection)]
    found = list(Game.objects.raw(query, params, using=connection.alias).prefetch_related(seats))
    return found[0] if found else None


def seats_in_order(game: Game) -> list[Seat]:
    """The game's seats by number, each with its user: those read with the game (as
    ``SEATS_WITH_USERS``) when it was, else read now in one query (and kept on ``game``)."""
    prefetch_related_objects([game], SEATS_WITH_PEOPLE)
    return sorted(game.seats.all(), key=lambda seat: seat.seat)


def vacation_until(user_id: int) -> datetime | None:
    """The end of ``user_id``'s vacation running now, or None.

    One query; seats read through ``SEATS_WITH_USERS`` carry it as ``on_vacation_until``.
    """
    now = timezone.now()
    running = Vacation.objects.filter(user_id=user_id, starts_at__lte=now, ends_at__gt=now)
    return running.order_by("-ends_at").values_list("ends_at", flat=True).first()


def games_of(user: User, *, seats: Prefetch = SEATS_WITH_USERS):
    """The games ``user`` holds a seat in (staff included), ``seats`` prefetched (as
    ``SEATS_WITH_USERS`` unless given: ``SEATS_WITH_PEOPLE`` for a list of names)."""
    return Game.objects.filter(seats__user=user).prefetch_related(seats)


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
