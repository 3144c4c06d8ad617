"""Who holds the host's chair (games.chair): the host while still in the game, then the
next person still in it, round the table; nobody when no person is left."""

import pytest

from accounts import erasure
from games import actions
from games.chair import chair_seat, still_in_game
from games.models import Game, Seat
from games.queries import game_with_seats
from tests.factories import start_toy_game

pytestmark = pytest.mark.django_db


def holder(game: Game) -> int | None:
    """The chair's seat number in ``game`` as it is in the database now."""
    found = game_with_seats(game.id)
    assert found is not None
    row = chair_seat(found, list(found.seats.all()))
    return None if row is None else row.seat


def test_the_host_holds_the_chair_while_still_in_the_game(toy_game):
    assert holder(toy_game) == 0
    # Absent (a stand-in bot plays for her) is still in the game: she may take it back.
    Seat.objects.filter(game=toy_game, seat=0).update(bot="random")
    assert holder(toy_game) == 0


def test_the_chair_passes_round_the_table_past_bots_and_resigned_players(anna, bert, carla):
    # Piratz's game: four seats (the toy seats three at most).
    # Anna hosts from the last seat: after her comes seat 0, round the table.
    game = actions.do_create_game(anna, [bert.email, "bot:careful", carla.email, anna.email])
    actions.do_accept_invitation(game.id, bert)
    actions.do_accept_invitation(game.id, carla)
    assert holder(game) == 3
    Seat.objects.filter(game=game, seat=3).update(resigned=True)
    assert holder(game) == 0  # Bert, after Anna round the table
    Seat.objects.filter(game=game, seat=0).update(resigned=True)
    assert holder(game) == 2  # past the bot's own seat, to Carla
    Seat.objects.filter(game=game, seat=2).update(resigned=True)
    assert holder(game) is None  # nobody left: the controls end


def test_an_erased_account_never_holds_the_chair(toy_games, anna, bert, carla):
    game = start_toy_game([anna, bert, carla])
    erasure.erase_user(anna.pk)
    found = game_with_seats(game.id)
    assert found is not None
    seats = list(found.seats.all())
    assert not still_in_game(seats[0])
    assert chair_seat(found, seats).seat == 1
    # The account being erased right now (its erased_at not yet set) is named.
    assert chair_seat(found, seats, leaving_id=bert.pk).seat == 2
