"""Whole games through HTTP: every view equals the engine's, and nothing secret leaks."""

import random

import pytest

from games.models import Game, Move
from games.rules import piratz
from tests.factories import client_for, start_game

from .secrets_scan import assert_no_secrets

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def choose(legal: list[dict], rng: random.Random) -> dict:
    """A player who reveals often, so games run their full length."""
    reveal = {"action": "reveal"}
    if reveal in legal and rng.random() < 0.7:
        return reveal
    return rng.choice(legal)


def play_whole_game(seated, *, seed: int, blind: bool = False, caplog=None, mailoutbox=None):
    game = start_game(seated, seed=seed, blind=blind)
    clients = [client_for(user) for user in seated]
    state = piratz.load(Game.objects.get(id=game.id).state)
    rng = random.Random(seed)
    version = 0
    while not piratz.is_finished(state):
        seat = piratz.current_seat(state)
        action = choose(piratz.legal_actions(state, seat), rng)
        response = clients[seat].post(
            f"/api/games/{game.id}/moves/", {"version": version, **action}, format="json"
        )
        assert response.status_code == 200, response.json()
        state = piratz.apply(state, seat, action)
        version += 1
        body = response.json()
        assert body["version"] == version
        assert body["state"] == piratz.view(state, seat)
        # Everything the API says was judged against the state it was showing.
        assert_no_secrets(response.content.decode(), state, blind_viewer=blind)
        watcher = (seat + 1) % len(seated)
        other = clients[watcher].get(f"/api/games/{game.id}/")
        assert other.json()["state"] == piratz.view(state, watcher)
        assert_no_secrets(other.content.decode(), state, blind_viewer=blind)
        log = clients[watcher].get(f"/api/games/{game.id}/moves/")
        assert_no_secrets(log.content.decode(), state, blind_viewer=blind)
        assert len(log.json()) == version

    game.refresh_from_db()
    assert game.status == "finished"
    assert game.deadline is None and game.current_seat is None
    assert game.result == piratz.view(state, None)["result"]
    final = clients[0].get(f"/api/games/{game.id}/").json()
    assert final["status"] == "finished"
    assert final["state"]["result"]["winners"]
    assert Move.objects.filter(game=game).count() == version
    if caplog is not None:
        assert_no_secrets(caplog.text, state)
    return game


@pytest.mark.parametrize(("count", "seed"), [(2, 11), (3, 12), (4, 13)])
def test_whole_game_over_http(players, count, seed, caplog, mailoutbox):
    play_whole_game(players[:count], seed=seed, caplog=caplog)
    for email in mailoutbox:
        assert "draw" not in email.body


def test_whole_blind_game_over_http_hides_collections(players):
    play_whole_game(players[:3], seed=21, blind=True)
