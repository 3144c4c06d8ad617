"""The public games (``/games/public/``, ``GET /api/games/public/``): being played now and
ended lately, by game, for anyone; never a private game or one not begun."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import actions
from games.models import Game
from tests.factories import client_for, play_toy_moves, start_game, start_toy_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def listed(toy_games, anna, bert, carla):
    """A public game being played, one finished, one ended long ago, a private one and a
    public one still waiting for acceptances."""
    playing = start_toy_game([anna, bert], public=True)
    finished = play_toy_moves(
        start_toy_game([anna, carla], public=True), [anna, carla], [1, 4, 2, 5, 3]
    )
    old = play_toy_moves(start_toy_game([bert, carla], public=True), [bert, carla], [1, 4, 2, 5, 3])
    Game.objects.filter(id=old.id).update(ended_at=timezone.now() - timedelta(days=30))
    private = start_toy_game([anna, bert])
    invited = actions.do_create_game(anna, [anna.email, carla.email], game="tictactoe", public=True)
    return {"playing": playing, "finished": finished, "old": old, "hidden": [private, invited]}


def test_the_api_lists_public_games_being_played_or_ended_lately(listed):
    api = client_for(None)
    now = api.get("/api/games/public/")
    assert now.status_code == 200
    assert [g["id"] for g in now.json()["results"]] == [str(listed["playing"].id)]
    entry = now.json()["results"][0]
    assert entry["players"] == ["Anna", "Bert"] and entry["current_seat"] == 0
    assert entry["url"] == f"/games/{listed['playing'].id}/" and "state" not in entry
    ended = api.get("/api/games/public/?ended=true&game=tictactoe").json()["results"]
    assert [g["id"] for g in ended] == [str(listed["finished"].id)]
    assert ended[0]["winners"] == [0] and ended[0]["status"] == "finished"
    assert api.get("/api/games/public/?game=piratz").json()["results"] == []


@pytest.mark.parametrize("query", ["?status=active", "?ended=yes", "?game=chess", "?page=x"])
def test_bad_filters_are_refused_in_the_error_shape(listed, query):
    answer = client_for(None).get(f"/api/games/public/{query}")
    assert answer.status_code in (400, 404)
    assert {"code", "detail"} <= set(answer.json())


def test_the_page_lists_them_by_game_for_anyone(listed, anna):
    page = Client().get("/games/public/").content.decode()
    assert f'data-public-game="{listed["playing"].id}"' in page
    assert f'data-public-game="{listed["finished"].id}"' in page
    for game in (listed["old"], *listed["hidden"]):
        assert str(game.id) not in page
    assert 'data-public-games="piratz"' in page and 'data-public-games="tictactoe"' in page
    assert f"/games/{listed['finished'].id}/replay/" in page


def test_a_blind_public_game_lists_no_cards(anna, bert):
    game = start_game([anna, bert], blind=True, public=True)
    page = Client().get("/games/public/").content.decode()
    assert str(game.id) in page and "(#" not in page
