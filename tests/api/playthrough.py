"""Whole games played over HTTP by seeded random players, for the tests that watch them."""

import random
from collections.abc import Iterator
from dataclasses import dataclass

from games.models import Game
from games.rules import piratz


def choose(legal: list[dict], rng: random.Random) -> dict:
    """A player who often reveals, so the games run their full length."""
    reveal = {"action": "reveal"}
    return reveal if reveal in legal and rng.random() < 0.7 else rng.choice(legal)


@dataclass(frozen=True)
class PlayedMove:
    """One move the API accepted: who played what, the engine's states around it, the answer."""

    seat: int
    action: dict
    before: piratz.State
    after: piratz.State
    version: int  # the game's version after the move
    response: object  # the test client's response to the move's POST


def play_over_http(game: Game, clients: list, *, seed: int) -> Iterator[PlayedMove]:
    """Play ``game`` (already started) to its end through ``POST …/moves/``, one seeded
    random move at a time by the client of the seat to move; yields each accepted move.

    Fails the test if the API refuses a legal move. The states are the engine's own,
    replayed beside the service, so callers can judge every answer against them.
    """
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
        after = piratz.apply(state, seat, action)
        version += 1
        yield PlayedMove(seat, action, state, after, version, response)
        state = after
