"""Tic-tac-toe with the engine protocol of ``games/engine_protocol.py``: a toy third game.

Pure Python. Cells are numbered 1-9, left to right and top to bottom; seat 0 plays X.
"""

from dataclasses import dataclass

NAME = "Tic-tac-toe"
GAME = "tictactoe"
PLAYER_COUNTS = (2,)
OPTIONS: dict[str, bool] = {}
ROUNDS_TO_ABANDON = 1
ERROR_CODES = {
    "malformed": "The action is not {'action': 'mark', 'cell': 1..9}.",
    "not_your_turn": "It is not your turn.",
    "taken": "That cell is taken.",
    "game_over": "The game is over.",
}
_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class IllegalAction(ValueError):
    def __init__(self, code: str):
        super().__init__(ERROR_CODES[code])
        self.code = code


@dataclass(frozen=True)
class State:
    cells: tuple = (None,) * 9
    moves: int = 0


def new_game(players: int = 2, seed=None, **options) -> State:
    return State()


def winner(state: State):
    for a, b, c in _LINES:
        if state.cells[a] is not None and state.cells[a] == state.cells[b] == state.cells[c]:
            return state.cells[a]
    return None


def is_finished(state: State) -> bool:
    return winner(state) is not None or state.moves == 9


def current_seat(state: State):
    return None if is_finished(state) else state.moves % 2


def round_number(state: State) -> int:
    return state.moves // 2 + 1


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
    return State(tuple(cells), state.moves + 1)


def view(state: State, seat) -> dict:
    finished = is_finished(state)
    won = winner(state)
    return {
        "game": GAME,
        "players": 2,
        "seat": seat,
        "status": "finished" if finished else "active",
        "current_seat": current_seat(state),
        "board": ["XO"[v] if v is not None else "." for v in state.cells],
        "legal_actions": [] if seat is None else legal_actions(state, seat),
        "result": {"winners": [won] if won is not None else [0, 1]} if finished else None,
    }


def timeout_action(state: State, standing_order=()) -> dict:
    return legal_actions(state, current_seat(state))[0]


def dump(state: State) -> dict:
    return {"cells": list(state.cells), "moves": state.moves}


def load(data: dict) -> State:
    return State(tuple(data["cells"]), data["moves"])


def move_effects(before, after, seat, action) -> dict:
    return {"revealed": None, "revealed_ids": None, "buried": None, "new_turn": True}


def public_revealed(ids):
    return None
