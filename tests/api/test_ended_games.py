"""A game that ended without a result (moderator abort, P25 abandonment) shows as ended."""

import pytest

from games import actions
from games.models import EndReason, Game, GameStatus
from tests.factories import client_for, start_game, toy_move

pytestmark = pytest.mark.django_db

ENDED_KEYS = {"status", "current_seat", "phase", "legal_actions"}


def _mid_game(anna, bert, carla) -> Game:
    """A 3-player game two moves in: Anna revealed, so she is in phase decide with choices."""
    game = start_game([anna, bert, carla])
    actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
    return Game.objects.get(id=game.id)


def assert_shows_the_table_as_it_ended(body: dict, game: Game, seat: int | None) -> None:
    state = body["state"]
    assert body["status"] == "aborted" and body["deadline"] is None
    assert state["status"] == "aborted"
    assert state["current_seat"] is None and state["phase"] is None
    assert state["legal_actions"] == []
    # Everything else is the table exactly as the engine left it.
    table = game.rules.view(game.load_state(), seat)
    assert {k: v for k, v in state.items() if k not in ENDED_KEYS} == {
        k: v for k, v in table.items() if k not in ENDED_KEYS
    }


def test_a_moderator_abort_shows_the_game_ended_to_players_and_staff(anna, bert, carla, moderator):
    game = _mid_game(anna, bert, carla)
    assert game.rules.view(game.load_state(), 0)["legal_actions"]  # she had moves
    actions.do_abort_game(game.id, moderator, reason="test")

    for seat, user in [(0, anna), (1, bert), (None, moderator)]:
        response = client_for(user).get(f"/api/games/{game.id}/")
        assert response.status_code == 200
        assert_shows_the_table_as_it_ended(response.json(), game, seat)
    listed = client_for(anna).get("/api/games/").json()["results"][0]
    assert listed["state"]["status"] == "aborted" and listed["state"]["phase"] is None

    refused = client_for(anna).post(
        f"/api/games/{game.id}/moves/", {"version": 1, "action": "end_turn"}, format="json"
    )
    assert refused.status_code == 409 and refused.json()["code"] == "game_not_active"


def test_a_p25_abandoned_game_shows_ended(anna, bert, moderator):
    game = start_game([anna, bert], seed=3)
    while game.status == GameStatus.ACTIVE:
        actions.do_play_timeout(game.id, moderator=moderator, reason="test")
        game.refresh_from_db()
    assert game.end_reason == EndReason.ABANDONED

    body = client_for(bert).get(f"/api/games/{game.id}/").json()
    assert_shows_the_table_as_it_ended(body, game, 1)
    assert body["end_reason"] == "abandoned"


def test_a_game_aborted_before_it_started_has_no_table(anna, bert, moderator):
    game = actions.do_create_game(anna, [anna.email, bert.email])
    actions.do_abort_game(game.id, moderator, reason="test")
    body = client_for(anna).get(f"/api/games/{game.id}/").json()
    assert (body["status"], body["state"]) == ("aborted", None)


def test_a_finished_game_keeps_the_engines_view(toy_game, anna, bert):
    """Only games that ended without a result are rewritten; a finished one is the engine's
    (any game's: the toy's)."""
    game, rules = toy_game, toy_game.rules
    state = rules.load(game.state)
    users = [anna, bert]
    while not rules.is_finished(state):
        seat = rules.current_seat(state)
        game = Game.objects.get(id=game.id)
        action = toy_move(game)
        actions.do_play_move(game.id, users[seat], game.version, action)
        state = rules.apply(state, seat, action)
    body = client_for(anna).get(f"/api/games/{game.id}/").json()
    assert body["status"] == "finished"
    assert body["state"] == rules.view(state, 0)
