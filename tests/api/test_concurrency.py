"""Concurrent moves on one game: they are serialised and each version is played once."""

import pytest

from games.kinds.piratz import rules as piratz
from games.models import Game, Move
from tests.concurrency import at_once
from tests.factories import client_for, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

THREADS = 8


def test_concurrent_moves_are_applied_once_per_version(anna, bert, carla):
    seated = [anna, bert, carla]
    game = start_game(seated, seed=31)
    clients = [client_for(user) for user in seated]

    for _round in range(12):
        game.refresh_from_db()
        if game.status != "active":
            break
        state = piratz.load(game.state)
        seat = game.current_seat
        legal = piratz.legal_actions(state, seat)
        # Every thread sends a (possibly different) legal move from the same version; the
        # other players also fire, out of turn.
        attempts = []
        for i in range(THREADS):
            client = clients[seat] if i % 4 else clients[(seat + 1) % 3]
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
        assert codes <= {"stale_version", "not_your_turn"}


def test_double_submitted_move_is_applied_once(anna, bert):
    game = start_game([anna, bert], seed=32)
    client = client_for(anna)
    responses = at_once(
        [
            lambda: client.post(
                f"/api/games/{game.id}/moves/", {"version": 0, "action": "reveal"}, format="json"
            )
            for _ in range(THREADS)
        ]
    )
    assert [r.status_code for r in responses] == [200] * THREADS
    assert {r.json()["version"] for r in responses} == {1}
    assert Move.objects.filter(game=game).count() == 1
    assert Game.objects.get(id=game.id).version == 1
