"""``Game.load_state``: the engine state is loaded once for each value of ``state``.

A move's answer and its turn email read the state the move made instead of checking and
rebuilding it from JSON again; a new value of ``state`` is loaded anew.
"""

import pytest

from games import actions
from games.kinds.piratz import rules as piratz
from notifications.models import OutboundEmail
from tests.factories import client_for, make_user, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def loads(monkeypatch):
    """Every state Piratz's ``load`` builds, in order."""
    built = []
    original = piratz.load

    def counted(data):
        state = original(data)
        built.append(state)
        return state

    monkeypatch.setattr(piratz, "load", counted)
    return built


def test_a_move_over_the_api_loads_the_state_once(loads):
    anna, ben = make_user("anna@example.com"), make_user("ben@example.com")
    game = start_game([anna, ben], seed=3)
    mover = [anna, ben][game.current_seat]
    client = client_for(mover)
    loads.clear()  # the start's own
    body = {"version": 0}
    for action in ({"action": "reveal"}, {"action": "end_turn"}):
        response = client.post(
            f"/api/games/{game.id}/moves/", {"version": body["version"], **action}, format="json"
        )
        assert response.status_code == 200, response.json()
        body = response.json()
    # The second move passed the turn: the other player's turn email was queued.
    assert body["state"]["current_seat"] != game.current_seat
    assert OutboundEmail.objects.filter(to=[anna, ben][body["state"]["current_seat"]].email)
    # Each move's own load: its answer and the turn email reuse the state it made.
    assert len(loads) == 2


def test_the_state_a_move_made_is_the_one_read_after_it(loads):
    anna, ben = make_user("anna@example.com"), make_user("ben@example.com")
    game = start_game([anna, ben], seed=3)
    mover = [anna, ben][game.current_seat]
    played = actions.do_play_move(game.id, mover, 0, {"action": "reveal"})
    loaded_by_the_move = len(loads)
    assert piratz.dump(played.load_state()) == played.state
    assert len(loads) == loaded_by_the_move


def test_a_new_value_of_state_is_loaded_anew(loads):
    anna, ben = make_user("anna@example.com"), make_user("ben@example.com")
    game = start_game([anna, ben], seed=3)
    before = game.load_state()
    assert game.load_state() is before  # the same value: not loaded again
    mover = [anna, ben][game.current_seat]
    actions.do_play_move(game.id, mover, 0, {"action": "reveal"})
    # Read again from the database: the move's state, not the one remembered.
    game.refresh_from_db()
    after = game.load_state()
    assert after is not before
    assert piratz.dump(after) == game.state
    assert len(after.face_up) == len(before.face_up) + 1


def test_the_start_deals_a_state_its_emails_read_without_loading_it(loads):
    anna, ben = make_user("anna@example.com"), make_user("ben@example.com")
    game = actions.do_create_game(anna, [anna.email, ben.email])
    actions.do_accept_invitation(game.id, ben)  # the last seat: the game starts
    # Its "game started" emails and the first turn's email showed the dealt table.
    assert OutboundEmail.objects.filter(to=ben.email).count() >= 1
    assert loads == []
