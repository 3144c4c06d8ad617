"""The placement the service plays for a player whose deadline passed (R34, R35)."""

from .board import is_stuck, place, placement_scoring, window
from .engine import legal_actions
from .strips import RAT_SEAT


def _key(state, seat, action):
    """R35's key for one legal action (the canonical order, item 6, is the list order)."""
    x, y, orientation = action["x"], action["y"], action["orientation"]
    board, _ = place(state.board, action["strip"], x, y, orientation, action["flip"])
    own_rats = [
        cell
        for cell, (_, _, symbol) in board.grid.items()
        if symbol in RAT_SEAT and RAT_SEAT[symbol] == seat
    ]
    stuck = sum(1 for cell in own_rats if is_stuck(board, cell))
    gained = [0, 0]
    for owner, _, _, value in placement_scoring(state.board, board, window(x, y, orientation)):
        gained[owner] += value
    mx, my = (x + 1, y) if orientation == "h" else (x, y + 1)
    return (len(own_rats), stuck, -gained[seat], gained[1 - seat], abs(mx) + abs(my))


def timeout_action(state, standing_order=()):
    """R35: the legal action of the seat to move with the smallest key; None once finished.

    ``standing_order`` is accepted for the registry's common signature; Rattenscharf has
    no standing orders, so it is ignored.
    """
    if state.finished:
        return None
    seat = state.current
    best = None
    for action in legal_actions(state, seat):  # canonical order: the first minimum wins
        key = _key(state, seat, action)
        if best is None or key < best[0]:
            best = (key, action)
    assert best is not None  # the seat to move of an unfinished game has a legal action
    return best[1]
