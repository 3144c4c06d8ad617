"""Read access to games: which games a user may see, and which seat they hold."""

from datetime import datetime

from django.db.models import DateTimeField, Expression, OuterRef, Prefetch, Subquery, Value
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User, Vacation
from games.errors import GameError
from games.models import Game, Seat


class ServiceNow(Expression):
    """The service's clock (``timezone.now``) as a query parameter, read when the query
    runs, not when it is built: module-level querysets stay current, and tests that move
    time with ``time_machine`` move it too (the database's own NOW() would not)."""

    output_field = DateTimeField()

    def as_sql(self, compiler, connection):
        return compiler.compile(Value(timezone.now(), output_field=DateTimeField()))


def _vacation_running(user_ref: str):
    """The end of the vacation of the user ``user_ref`` names that runs now, or NULL."""
    running = Vacation.objects.filter(
        user=OuterRef(user_ref), starts_at__lte=ServiceNow(), ends_at__gt=ServiceNow()
    )
    return Subquery(running.order_by("-ends_at").values("ends_at")[:1])


# A game's seats with their users, each seat annotated with ``on_vacation_until`` (what
# the other players see) and each user with their notification settings (the deadline
# and the emails read them): one query for all of it, however many seats.
SEATS_WITH_USERS = Prefetch(
    "seats",
    queryset=Seat.objects.select_related("user", "user__notification_settings").annotate(
        on_vacation_until=_vacation_running("user_id")
    ),
)


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
    """The game, or ``GameError("not_found")`` when it is missing or not the user's to see.

    Outsiders get the same answer as for a missing game, so ids cannot be probed.
    """
    game = games_visible_to(user).filter(id=game_id).first()
    if game is None:
        raise GameError("not_found", _("No such game, or you are not a player of it."))
    return game


def seat_of(game: Game, user: User) -> int | None:
    """The seat ``user`` holds in ``game``, or None (uses the prefetched seats if present)."""
    for seat in game.seats.all():
        if seat.user_id == user.id:
            return seat.seat
    return None
