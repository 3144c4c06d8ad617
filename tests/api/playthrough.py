"""Whole games played over HTTP by seeded random players, for the tests that watch them."""

import random
from collections.abc import Iterator
from dataclasses import dataclass

from games.models import Game


def choose(legal: list[dict], rng: random.Random) -> dict:
    """A player who often reveals (Piratz), so the games run their full length; in a game
    without reveals (Rattenscharf), any legal action."""
    reveal = {"action": "reveal"}
    return reveal if reveal in legal and rng.random() < 0.7 else rng.choice(legal)


@dataclass(frozen=True)
class PlayedMove:
    """One move the API accepted: who played what, the engine's states around it, the answer."""

    seat: int
    action: dict
    before: object  # the game's rules' State
    after: object
    version: int  # the game's version after the move
    response: object  # the test client's response to the move's POST


def play_over_http(
    game: Game, clients: list, *, seed: int, from_answers: bool = False
) -> Iterator[PlayedMove]:
    """Play ``game`` (already started) to its end through ``POST …/moves/``, one seeded
    random move at a time by the client of the seat to move; yields each accepted move.

    Fails the test if the API refuses a legal move. The states are the engine's own
    (the game's rules), replayed beside the service, so callers can judge every answer
    against them. With ``from_answers`` each move is chosen from the ``legal_actions`` the
    API last showed that player (the previous answer, or a GET when the turn came to
    them), as a real client plays; otherwise from the engine's own list.
    """
    rules = game.rules
    state = rules.load(Game.objects.get(id=game.id).state)
    rng = random.Random(seed)
    version = 0
    shown = None  # the last game answer the mover saw
    while not rules.is_finished(state):
        seat = rules.current_seat(state)
        if from_answers:
            if shown is None or shown["state"]["current_seat"] != seat or shown["you"] != seat:
                answer = clients[seat].get(f"/api/games/{game.id}/")
                assert answer.status_code == 200, answer.json()
                shown = answer.json()
            assert shown["version"] == version
            legal = shown["state"]["legal_actions"]
        else:
            legal = rules.legal_actions(state, seat)
        action = choose(legal, rng)
        response = clients[seat].post(
            f"/api/games/{game.id}/moves/", {"version": version, **action}, format="json"
        )
        assert response.status_code == 200, response.json()
        shown = response.json()
        after = rules.apply(state, seat, action)
        version += 1
        yield PlayedMove(seat, action, state, after, version, response)
        state = after
