"""Concurrent moves on one game: they are serialised and each version is played once (on the
toy game: this is the platform's serialising, not a game's rules)."""

import pytest

from games.models import Game, Move
from tests.concurrency import at_once
from tests.factories import client_for, start_toy_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

THREADS = 8


def test_concurrent_moves_are_applied_once_per_version(toy_games, anna, bert):
    seated = [anna, bert]
    game = start_toy_game(seated)
    clients = [client_for(user) for user in seated]

    for _move in range(9):
        game.refresh_from_db()
        if game.status != "active":
            break
        seat = game.current_seat
        legal = game.rules.legal_actions(game.load_state(), seat)
        # Every thread sends a (possibly different) legal move from the same version; the
        # other player also fires, out of turn.
        attempts = []
        for i in range(THREADS):
            client = clients[seat] if i % 4 else clients[1 - seat]
            action = legal[i % len(legal)]
            body = {"version": game.version, **action}
            attempts.append(
                lambda c=client, b=body: c.post(f"/api/games/{game.id}/moves/", b, format="json")
            )
        responses = at_once(attempts)

        statuses = [r.status_code for r in responses]
        assert set(statuses) <= {200, 409}, [r.json() for r in responses]
        assert 200 in statuses
        before = game.version
        game.refresh_from_db()
        assert game.version == before + 1, "exactly one of the concurrent moves was applied"
        assert Move.objects.filter(game=game).count() == game.version
        codes = {r.json()["code"] for r in responses if r.status_code == 409}
        # The move that ends the game leaves nothing to play for the others.
        ended = {"game_not_active"} if game.status != "active" else set()
        assert codes <= {"stale_version", "not_your_turn", *ended}


def test_double_submitted_move_is_applied_once(toy_games, anna, bert):
    game = start_toy_game([anna, bert])
    client = client_for(anna)
    responses = at_once(
        [
            lambda: client.post(
                f"/api/games/{game.id}/moves/",
                {"version": 0, "action": "mark", "cell": 5},
                format="json",
            )
            for _ in range(THREADS)
        ]
    )
    assert [r.status_code for r in responses] == [200] * THREADS
    assert {r.json()["version"] for r in responses} == {1}
    assert Move.objects.filter(game=game).count() == 1
    assert Game.objects.get(id=game.id).version == 1
