"""Hypothesis playouts: whole random games keep every invariant of the engine."""

import dataclasses
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.kinds.rattenscharf import rules as rs
from games.kinds.rattenscharf.rules.state import START_PLACEMENT

from .helpers import naive_legal_windows

MAX_MOVES = 41  # 42 strips, one placement each: a game can never need more


def naive_grid(state):
    """The visible layer recomputed from the placements alone: cell -> (height, strip)."""
    grid = {}
    for strip, x, y, orientation, _flip, level, _seat, _turn in state.placements:
        dx, dy = (1, 0) if orientation == "h" else (0, 1)
        for k in range(3):
            grid[x + k * dx, y + k * dy] = (level, strip)
    return grid


def check_invariants(state, check_windows):
    # Every strip is in exactly one place.
    laid = [p[0] for p in state.placements[1:]]
    assert sorted([*state.pile, *state.hand, *laid]) == list(range(1, 43))
    # The start strip never moves.
    assert state.placements[0] == START_PLACEMENT
    # A cell's height is the level of its top strip (the index agrees with a replay).
    assert {c: (h, s) for c, (h, s, _) in state.board.grid.items()} == naive_grid(state)
    # Exactly one seat may act until the end, then none; there is always a move (R15).
    movers = [seat for seat in (0, 1) if rs.legal_actions(state, seat)]
    assert movers == ([] if state.finished else [state.current])
    if check_windows and not state.finished:
        windows = {
            (a["x"], a["y"], a["orientation"]) for a in rs.legal_actions(state, state.current)
        }
        assert windows == set(naive_legal_windows(state))
    # A value that survives its JSON form.
    assert rs.load(json.loads(json.dumps(rs.dump(state)))) == state
    # The views never show the draw order: another order of the same pile looks the same.
    reordered = dataclasses.replace(state, pile=state.pile[::-1], board=state.board)
    for seat in (0, 1, None):
        view = rs.view(state, seat)
        json.dumps(view)
        assert rs.view(reordered, seat) == view
        assert "pile" not in view


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_random_playouts_keep_every_invariant(seed, choices):
    rng = random.Random(choices)
    state = rs.new_game(seed=seed)
    moves = 0
    check_invariants(state, True)
    while not rs.is_finished(state):
        seat = rs.current_seat(state)
        action = rng.choice(rs.legal_actions(state, seat))
        before = state
        state = rs.apply(state, seat, action)
        moves += 1
        effects = rs.move_effects(before, state, seat, action)
        assert effects["new_turn"] == (not before.hand[1:])
        if effects["revealed"] is not None:
            assert effects["revealed"] == list(state.hand) and state.turn == before.turn + 1
        check_invariants(state, moves % 8 == 0)
    assert moves <= MAX_MOVES
    result = rs.result(state)
    # The game ends after 22 turns or by rats.
    if result["reason"] == "complete":
        assert state.turn == 22 and not state.pile and moves == MAX_MOVES
    else:
        assert result["reason"] == "rats" and state.board.rats[result["rat_loser"]] >= 3
        assert state.placements[-1][6] == result["rat_loser"]
    scores = [p["score"] for p in result["players"]]
    assert result["winners"] == (
        [1 - result["rat_loser"]]
        if result["reason"] == "rats"
        else [s for s in (0, 1) if scores[s] == max(scores)]
    )
