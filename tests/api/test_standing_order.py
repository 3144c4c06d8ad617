"""GET/PUT /api/games/{id}/standing-order/ and the automatic move that follows it."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games import actions
from games.kinds.piratz import rules as piratz
from games.models import Game, Move, Seat
from tests.factories import client_for, start_game

pytestmark = pytest.mark.django_db

START = datetime(2026, 12, 7, 10, 0, tzinfo=UTC)


def url(game) -> str:
    return f"/api/games/{game.id}/standing-order/"


def put(user, game, body):
    return client_for(user).put(url(game), body, format="json")


def order_of(user, game) -> list:
    return Seat.objects.get(game=game, user=user).standing_order


def test_a_player_reads_an_empty_order_and_the_choices(game, bert):
    response = client_for(bert).get(url(game))
    assert response.status_code == 200
    assert response.json() == {"standing_order": [], "choices": list(piratz.TREASURES)}


def test_a_player_sets_and_replaces_their_own_order_only(game, anna, bert):
    response = put(bert, game, {"standing_order": ["shells", "rings"]})
    assert response.status_code == 200
    assert response.json()["standing_order"] == ["shells", "rings"]
    assert order_of(bert, game) == ["shells", "rings"]
    assert order_of(anna, game) == []
    assert client_for(bert).get(url(game)).json()["standing_order"] == ["shells", "rings"]
    assert client_for(anna).get(url(game)).json()["standing_order"] == []

    assert put(bert, game, {"standing_order": []}).status_code == 200
    assert order_of(bert, game) == []


@pytest.mark.parametrize(
    "body",
    [
        {"standing_order": ["rings", "rings"]},
        {"standing_order": ["doubloons"]},
        {"standing_order": "rings"},
        {"standing_order": [3]},
        {"standing_order": ["rings"], "extra": 1},
        {},
        ["rings"],
    ],
)
def test_a_malformed_order_is_refused_and_changes_nothing(game, bert, body):
    put(bert, game, {"standing_order": ["pearls"]})
    response = put(bert, game, body)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert order_of(bert, game) == ["pearls"]


def test_an_unknown_type_is_named_in_the_error(game, bert):
    detail = put(bert, game, {"standing_order": ["coins", "doubloons"]}).json()["detail"]
    assert "doubloons" in detail and "shells" in detail


def test_outsiders_get_404_for_both_methods(game, outsider):
    assert client_for(outsider).get(url(game)).json()["code"] == "not_found"
    response = put(outsider, game, {"standing_order": ["rings"]})
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_staff_without_a_seat_get_403_not_a_player(game, moderator):
    response = client_for(moderator).get(url(game))
    assert (response.status_code, response.json()["code"]) == (403, "not_a_player")
    response = put(moderator, game, {"standing_order": ["rings"]})
    assert (response.status_code, response.json()["code"]) == (403, "not_a_player")


def test_an_ended_game_refuses_a_new_order_with_409(game, bert, moderator):
    actions.do_abort_game(game.id, moderator, version=game.version, reason="test")
    response = put(bert, game, {"standing_order": ["rings"]})
    assert (response.status_code, response.json()["code"]) == (409, "game_not_active")
    assert order_of(bert, game) == []


def test_anonymous_callers_are_refused(game):
    assert client_for(None).get(url(game)).status_code == 401


def test_the_endpoint_is_in_the_schema(db):
    schema = client_for(None).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    operations = schema.json()["paths"]["/api/games/{game_id}/standing-order/"]
    assert set(operations) >= {"get", "put"}
    assert {"400", "403", "404", "409"} <= set(operations["put"]["responses"])


# --- The automatic move follows it -------------------------------------------------------


def stage_face_up(game: Game, face_up: list[int], phase: str = "decide") -> None:
    """Put exactly ``face_up`` in the row (taken from the top of the draw pile)."""
    data = dict(game.state)
    data["draw"] = [c for c in data["draw"] if c not in face_up]
    data["face_up"] = list(face_up)
    data["phase"] = phase
    Game.objects.filter(id=game.id).update(state=data)


@pytest.fixture
def timed_out(anna, bert):
    """A 2-player game at START; Anna (seat 0) is to move and her deadline passes."""
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert])
    # 11: rings; 21: 2 coins; 32: rings+coins; 13: pearls. P24 names coins, burying 11.
    stage_face_up(game, [11, 21, 32, 13])
    return game


def play_timeout(game) -> Move:
    with time_machine.travel(START + timedelta(hours=73), tick=False):
        assert actions.do_play_timeout(game.id, expected_version=game.version) is not None
    return Move.objects.get(game=game, number=game.version + 1)


def test_the_timeout_names_the_first_listed_type_that_takes_a_card(timed_out, anna):
    put(anna, timed_out, {"standing_order": ["shells", "pearls"]})
    move = play_timeout(timed_out)
    assert move.action == {"action": "pass", "treasure": "pearls", "bury": 21}
    assert move.automatic is True


def test_without_a_matching_type_the_timeout_is_p24(timed_out, anna):
    put(anna, timed_out, {"standing_order": ["shells", "gems"]})
    move = play_timeout(timed_out)
    assert move.action == {"action": "pass", "treasure": "coins", "bury": 11}
    assert move.automatic is True


def test_another_players_order_does_not_steer_the_timeout(timed_out, bert):
    put(bert, timed_out, {"standing_order": ["pearls"]})
    assert play_timeout(timed_out).action["treasure"] == "coins"
