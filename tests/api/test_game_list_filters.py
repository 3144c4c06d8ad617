"""GET /api/games/ filters: ``?status=``, ``?my_turn=``, and unknown parameters refused
(on the toy game: the ``toy_games`` fixture for every test)."""

import pytest

from games import actions
from games.models import Game, Seat
from tests.factories import TOY_KIND, client_for, start_toy_game

pytestmark = pytest.mark.usefixtures("toy_games")


def _ids(response) -> list[str]:
    assert response.status_code == 200, response.json()
    return [game["id"] for game in response.json()["results"]]


@pytest.fixture
def annas_games(anna, bert, carla):
    """Anna's games: one where she is to move, one where Bert is, one invitation, one
    finished; and one she is not in."""
    her_turn = start_toy_game([anna, bert])
    berts_turn = start_toy_game([bert, anna])
    invited = actions.do_create_game(bert, [bert.email, anna.email], game=TOY_KIND)
    finished = start_toy_game([carla, anna])
    Game.objects.filter(id=finished.id).update(status="finished", current_seat=None)
    not_hers = start_toy_game([bert, carla])
    return {
        "not_hers": not_hers,
        "her_turn": her_turn,
        "berts_turn": berts_turn,
        "invited": invited,
        "finished": finished,
    }


class TestStatusFilter:
    def test_status_picks_the_games_in_that_state(self, anna, annas_games):
        client = client_for(anna)
        active = _ids(client.get("/api/games/?status=active"))
        assert set(active) == {str(annas_games["her_turn"].id), str(annas_games["berts_turn"].id)}
        assert _ids(client.get("/api/games/?status=invited")) == [str(annas_games["invited"].id)]
        assert _ids(client.get("/api/games/?status=finished")) == [str(annas_games["finished"].id)]
        assert _ids(client.get("/api/games/?status=aborted")) == []

    def test_without_filters_every_game_of_hers(self, anna, annas_games):
        assert len(_ids(client_for(anna).get("/api/games/"))) == 4


class TestMyTurnFilter:
    def test_my_turn_true_is_the_games_waiting_on_her(self, anna, bert, annas_games):
        assert _ids(client_for(anna).get("/api/games/?my_turn=true")) == [
            str(annas_games["her_turn"].id)
        ]
        berts = set(_ids(client_for(bert).get("/api/games/?my_turn=true")))
        assert berts == {str(annas_games["berts_turn"].id), str(annas_games["not_hers"].id)}

    def test_my_turn_false_is_all_the_others(self, anna, annas_games):
        others = set(_ids(client_for(anna).get("/api/games/?my_turn=false")))
        assert others == {
            str(annas_games[name].id) for name in ("berts_turn", "invited", "finished")
        }

    def test_a_seat_a_stand_in_bot_plays_is_not_her_turn(self, anna, annas_games):
        game = annas_games["her_turn"]
        Seat.objects.filter(game=game, user=anna).update(bot="random")
        assert _ids(client_for(anna).get("/api/games/?my_turn=true")) == []

    def test_filters_combine_and_keep_paging(self, anna, annas_games):
        response = client_for(anna).get("/api/games/?status=active&my_turn=false&page=1")
        assert _ids(response) == [str(annas_games["berts_turn"].id)]
        assert response.json()["count"] == 1


class TestRefusals:
    @pytest.mark.parametrize(
        ("query", "named"),
        [
            ("state=active", "state"),
            ("status=active&mine=1", "mine"),
            ("page_size=50", "page_size"),
        ],
    )
    def test_an_unknown_parameter_is_refused_by_name(self, anna, annas_games, query, named):
        response = client_for(anna).get(f"/api/games/?{query}")
        assert response.status_code == 400
        body = response.json()
        assert body["code"] == "invalid"
        assert named in body["detail"]

    @pytest.mark.parametrize(
        "query",
        ["status=activ", "status=", "my_turn=yes", "my_turn=1", "status=active&status=finished"],
    )
    def test_a_bad_or_repeated_value_is_refused(self, anna, annas_games, query):
        response = client_for(anna).get(f"/api/games/?{query}")
        assert response.status_code == 400
        assert response.json()["code"] == "invalid"

    def test_the_refusal_comes_before_the_page_check(self, anna):
        # A typo in a filter is what the client must hear about, not the page number.
        response = client_for(anna).get("/api/games/?page=9&statuss=active")
        assert response.status_code == 400
