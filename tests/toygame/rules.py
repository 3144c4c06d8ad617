"""Tic-tac-toe with the engine protocol of ``games/engine_protocol.py``: a toy third game,
and the platform's fixture game in tests (``toy_game`` in tests/conftest.py).

Pure Python. Cells are numbered 1-9, left to right and top to bottom; seat 0 plays X, seat
1 O and, at a table of three (so tests can seat three people), seat 2 V. Three in a row
wins; a full board without one is a win for every seat. A ``random`` bot plays any free cell.
"""

import random
from dataclasses import dataclass

NAME = "Tic-tac-toe"
GAME = "tictactoe"
PLAYER_COUNTS = (2, 3)
OPTIONS: dict[str, bool] = {}
ROUNDS_TO_ABANDON = 1
ERROR_CODES = {
    "malformed": "The action is not {'action': 'mark', 'cell': 1..9}.",
    "not_your_turn": "It is not your turn.",
    "taken": "That cell is taken.",
    "game_over": "The game is over.",
}
BOT_LEVELS = ("random",)
_MARKS = "XOV"
_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class IllegalAction(ValueError):
    def __init__(self, code: str):
        super().__init__(ERROR_CODES[code])
        self.code = code


@dataclass(frozen=True)
class State:
    cells: tuple = (None,) * 9
    moves: int = 0
    players: int = 2


def new_game(players: int = 2, seed=None, **options) -> State:
    if players not in PLAYER_COUNTS:
        raise ValueError(f"tic-tac-toe is for 2 or 3 players, not {players!r}")
    return State(players=players)


def winner(state: State):
    for a, b, c in _LINES:
        if state.cells[a] is not None and state.cells[a] == state.cells[b] == state.cells[c]:
            return state.cells[a]
    return None


def is_finished(state: State) -> bool:
    return winner(state) is not None or state.moves == 9


def current_seat(state: State):
    return None if is_finished(state) else state.moves % state.players


def round_number(state: State) -> int:
    return state.moves // state.players + 1


def legal_actions(state: State, seat: int) -> list[dict]:
    if seat != current_seat(state):
        return []
    return [{"action": "mark", "cell": i + 1} for i, v in enumerate(state.cells) if v is None]


def apply(state: State, seat: int, action: dict) -> State:
    if is_finished(state):
        raise IllegalAction("game_over")
    if set(action) != {"action", "cell"} or action["action"] != "mark":
        raise IllegalAction("malformed")
    cell = action["cell"]
    if type(cell) is not int or not 1 <= cell <= 9:
        raise IllegalAction("malformed")
    if seat != current_seat(state):
        raise IllegalAction("not_your_turn")
    if state.cells[cell - 1] is not None:
        raise IllegalAction("taken")
    cells = list(state.cells)
    cells[cell - 1] = seat
    return State(tuple(cells), state.moves + 1, state.players)


def view(state: State, seat) -> dict:
    finished = is_finished(state)
    won = winner(state)
    return {
        "game": GAME,
        "players": state.players,
        "seat": seat,
        "status": "finished" if finished else "active",
        "current_seat": current_seat(state),
        "board": [_MARKS[v] if v is not None else "." for v in state.cells],
        "legal_actions": [] if seat is None else legal_actions(state, seat),
        "result": _result(won, state.players) if finished else None,
    }


def _result(won, players: int) -> dict:
    # A winner scores 1, everyone else 0; a full board without a row: every seat wins.
    winners = [won] if won is not None else list(range(players))
    seats = [{"seat": seat, "score": int(seat in winners)} for seat in range(players)]
    return {"players": seats, "winners": winners}


def timeout_action(state: State, standing_order=()) -> dict:
    return legal_actions(state, current_seat(state))[0]


def choose_bot_action(view: dict, level: str, rng: random.Random, memory=()) -> dict:
    """Any free cell, chosen by ``rng`` (the one level, ``random``)."""
    if level not in BOT_LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    if not view["legal_actions"]:
        raise ValueError("no legal actions")
    return dict(rng.choice(view["legal_actions"]))


def dump(state: State) -> dict:
    return {"cells": list(state.cells), "moves": state.moves, "players": state.players}


def load(data: dict) -> State:
    return State(tuple(data["cells"]), data["moves"], data.get("players", 2))


def move_effects(before, after, seat, action) -> dict:
    return {"revealed": None, "revealed_ids": None, "buried": None, "new_turn": True}


def public_revealed(ids):
    return None
