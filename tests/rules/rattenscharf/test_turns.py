"""Turns: R16-R18."""

import pytest

from games.kinds.rattenscharf import rules as rs

from .helpers import GAME_A, act, game, play


def test_r16_setup_scores_zero_turn_1_for_seat_0_and_a_secret_shuffled_pile():
    state = rs.new_game(seed=5)
    view = rs.view(state, 0)
    assert view["scores"] == [0, 0] and view["turn"] == 1 and view["current_seat"] == 0
    assert sorted(state.hand + state.pile) == list(range(1, 43))
    assert rs.new_game(seed=5) == state  # an int seed is reproducible
    assert rs.new_game(seed=6).pile != state.pile
    # None draws the key from the OS: two games practically never share an order.
    assert rs.new_game().hand + rs.new_game().pile != rs.new_game().hand + rs.new_game().pile


def test_r17_one_strip_on_turn_1_then_two_placed_in_any_order():
    state = game(*GAME_A)
    assert state.hand == (1,)
    state = play(state, act(1, 2, 0))
    assert state.hand == (3, 13) and rs.current_seat(state) == 1
    assert [s["id"] for s in rs.view(state, 0)["hand"]] == [3, 13]  # public, draw order
    # The player may lay the second-drawn strip first.
    later_first = play(state, act(13, -1, 1))
    assert later_first.hand == (3,) and rs.current_seat(later_first) == 1


def test_r17_every_strip_in_the_hand_must_be_placed():
    state = play(game(*GAME_A), act(1, 2, 0), act(3, 2, 1))
    assert rs.current_seat(state) == 1 and state.turn == 2  # the turn goes on
    assert {a["strip"] for a in rs.legal_actions(state, 1)} == {13}


def _stand_in_game(seed):
    """Both seats play R35's stand-in; returns the end state and (turn, seat, hand size)
    at the start of every turn."""
    state = rs.new_game(seed=seed)
    turns = []
    while not rs.is_finished(state):
        if not turns or turns[-1][0] != state.turn:
            turns.append((state.turn, rs.current_seat(state), len(state.hand)))
        state = rs.apply(state, rs.current_seat(state), rs.timeout_action(state))
    return state, turns


@pytest.mark.parametrize("seed", [1, 3])
def test_r18_a_complete_game_has_22_turns_alternating_seats(seed):
    state, turns = _stand_in_game(seed)
    assert rs.result(state)["reason"] == "complete"
    assert [t for t, _, _ in turns] == list(range(1, 23))
    assert [s for _, s, _ in turns] == [(t - 1) % 2 for t in range(1, 23)]
    assert [n for _, _, n in turns] == [1] + [2] * 20 + [1]
    assert rs.round_number(state) == 22
    assert sum(1 for p in state.placements if p[6] == 0) == 21


def test_r18_each_placement_scores_at_once_and_the_turn_ends_with_the_hand():
    state = play(game(*GAME_A), act(1, 2, 0), act(3, 2, 1))
    before = state
    state = play(state, act(13, 0, 0))
    assert state.points == (0, 1) and before.points == (0, 0)
    assert rs.current_seat(state) == 0 and state.turn == 3 and state.hand == (10, 2)
