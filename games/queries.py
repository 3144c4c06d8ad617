"""Read access to games: which games a user may see, and which seat they hold."""

from django.db.models import Prefetch

from accounts.models import User
from games.errors import GameError
from games.models import Game, Seat

SEATS_WITH_USERS = Prefetch("seats", queryset=Seat.objects.select_related("user"))


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
        raise GameError("not_found", "No such game, or you are not a player of it.")
    return game


def seat_of(game: Game, user: User) -> int | None:
    """The seat ``user`` holds in ``game``, or None (uses the prefetched seats if present)."""
    for seat in game.seats.all():
        if seat.user_id == user.id:
            return seat.seat
    return None
