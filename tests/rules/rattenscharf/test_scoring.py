"""Scoring, rats and the end: R19-R26."""

import functools

import pytest

from games.kinds.rattenscharf import rules as rs
from games.kinds.rattenscharf.rules.board import final_scoring, place

from .helpers import GAME_A, GAME_R, GAME_S, act, game, play


def test_r19_groups_connect_across_levels_and_are_worth_1_or_2():
    # Example 1: basil at level 2 and level 1 form a group of 2 worth 1.
    state = play(game(*GAME_A), act(1, 2, 0), act(3, 2, 1), act(13, 0, 0))
    assert state.last_scoring == ((1, "green:basil", ((2, 0), (3, 0)), 1),)
    # Example 4b: three chilies are worth 2.
    state = play(game(*GAME_S), act(7, -4, 0, flip=True), act(38, -3, 1, flip=True))
    state = play(state, act(17, -3, 2, "v"))
    assert state.last_scoring[0][3] == 2


def test_r19_rats_and_empty_fields_never_group():
    # Game R: strip 20 puts red rats... two adjacent rats/empties score nothing.
    state = play(game(*GAME_R), act(17, 2, 0), act(20, -1, 1))
    assert state.points == (0, 0)
    final = final_scoring(state.board)
    assert all(spice not in ("red:rat", "green:rat", "empty", "start") for _, spice, _, _ in final)


def test_r20_a_changed_group_scores_for_its_owner_on_the_other_turn():
    state = play(game(*GAME_A), act(1, 2, 0), act(3, 2, 1), act(13, 0, 0), act(10, 3, 2))
    state = play(state, act(2, 4, 0, "v", True))
    assert state.last_scoring == (
        (0, "red:paprika", ((3, 1), (4, 1), (3, 2)), 2),
        (1, "green:jalapeno", ((4, 2), (5, 2)), 1),
    )


def test_r21_a_group_that_lost_cells_and_holds_a_new_cell_scores():
    moves = [
        act(5, -2, 1, "h", True), act(25, -3, 2), act(29, -1, -1), act(30, 2, -3, "v", True),
        act(1, 3, -4, "v", True), act(16, -5, 1, "h", True), act(32, -6, -1, "v", True),
    ]  # fmt: skip
    state = play(rs.new_game(seed=35), *moves)
    before = state.board.grid
    assert {c for c in before if before[c][2] == "green:jalapeno"} >= {(-3, 1), (-2, 1), (-2, 2)}
    state = play(state, act(18, -4, 1, "h", True))
    # (-3, 1) is covered, (-2, 1) is a new jalapeno: {(-2,1), (-2,2)} differs and scores.
    assert (1, "green:jalapeno", ((-2, 1), (-2, 2)), 1) in state.last_scoring


def test_r21_shrinking_without_a_new_cell_or_keeping_the_same_cells_scores_nothing():
    state = play(game(*GAME_S), act(7, -4, 0, flip=True), act(38, -3, 1, flip=True))
    state = play(state, act(17, -3, 2, "v"), act(31, -3, 0))
    assert state.last_scoring == () and state.points == (3, 0)
    state = play(game(*GAME_A), act(1, 2, 0), act(3, 2, 1), act(13, 0, 0), act(10, 3, 2))
    state = play(state, act(2, 4, 0, "v", True), act(9, 3, 0, "v"))
    assert state.last_scoring == () and state.points == (3, 2)  # points are never lost


def test_r22_only_the_movers_rats_count_and_only_at_the_end_of_the_turn():
    state = play(game(*GAME_R), act(17, 2, 0), act(20, -1, 1), act(18, 2, 1))
    assert state.board.rats == (2, 1) and not state.finished
    state = play(state, act(24, -1, 2))
    assert state.board.rats[0] == 3 and not state.finished
    state = play(state, act(33, 1, 0))
    assert not state.finished and state.board.rats == (2, 1)


def test_r23_rat_loss_ends_at_once_without_final_scoring():
    state = play(game(*GAME_R), act(17, 2, 0), act(20, -1, 1), act(18, 2, 1))
    state = play(state, act(24, -1, 2), act(33, 1, 0), act(41, 2, 2), act(42, 5, 0, "v"))
    result = rs.result(state)
    assert result["reason"] == "rats" and result["rat_loser"] == 1 and result["winners"] == [0]
    assert result["final_scoring"] == [] and state.pile  # strips were left
    assert rs.legal_actions(state, 0) == rs.legal_actions(state, 1) == []


@functools.cache  # states are values; several tests read the same game
def _stand_in_game(seed):
    """Both seats play R35 until the last turn, which maximises the mover's own rats."""
    state = rs.new_game(seed=seed)
    while not rs.is_finished(state):
        seat = rs.current_seat(state)
        if state.turn == 22:
            action = max(
                rs.legal_actions(state, seat),
                key=lambda a: place(
                    state.board, a["strip"], a["x"], a["y"], a["orientation"], a["flip"]
                )[0].rats[seat],
            )
        else:
            action = rs.timeout_action(state)
        state = rs.apply(state, seat, action)
    return state


def test_r24_the_rat_check_comes_before_the_normal_end():
    state = _stand_in_game(39)
    assert state.turn == 22 and not state.pile and not state.hand
    assert state.board.rats[1] >= 3
    result = rs.result(state)
    assert result["reason"] == "rats" and result["rat_loser"] == 1 and result["winners"] == [0]


def test_r25_final_scoring_adds_every_group_of_two_or_more():
    state = _stand_in_game(7)
    result = rs.result(state)
    assert result["reason"] == "complete"
    groups = final_scoring(state.board)
    assert result["final_scoring"] == [
        {"seat": s, "spice": sp, "cells": [list(c) for c in cells], "points": p}
        for s, sp, cells, p in groups
    ]
    for seat in (0, 1):
        player = result["players"][seat]
        assert player["final_points"] == sum(p for s, _, _, p in groups if s == seat)
        assert player["placement_points"] == state.points[seat]
        assert player["score"] == player["placement_points"] + player["final_points"]
    assert all(len(cells) >= 2 for _, _, cells, _ in groups)


@pytest.mark.parametrize(("seed", "tie"), [(7, True), (1, False), (3, False)])
def test_r26_the_higher_total_wins_and_a_tie_is_shared(seed, tie):
    state = _stand_in_game(seed)
    result = rs.result(state)
    assert result["reason"] == "complete"
    totals = [p["score"] for p in result["players"]]
    if tie:
        assert totals[0] == totals[1] and result["winners"] == [0, 1]
    else:
        assert totals[0] != totals[1]
        assert result["winners"] == [totals.index(max(totals))]
    assert rs.view(state, None)["scores"] == totals


def test_r22_the_other_players_rats_are_not_checked():
    state = play(game(*GAME_R), act(17, 2, 0), act(20, -1, 1), act(18, 2, 1))
    state = play(state, act(24, -1, 2), act(33, 1, 0), act(41, 2, 2))
    state = play(state, act(42, 4, 0, "v"))  # covers green's rat at (4, 2), adds a red one
    assert state.board.rats == (4, 2)
    assert not state.finished and rs.current_seat(state) == 0 and state.turn == 5
