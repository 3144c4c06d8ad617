"""The engine interface: R27-R33."""

import json

import pytest

from games.kinds.rattenscharf import rules as rs
from games.kinds.rattenscharf.rules.board import place

from .helpers import GAME_A, GAME_R, act, error_code, game, order, play


def test_r27_new_game_arguments():
    with pytest.raises(ValueError, match="exactly 2 players"):
        rs.new_game(3)
    with pytest.raises(ValueError, match="permutation"):
        rs.new_game(order=[1, 2, 3])
    with pytest.raises(ValueError, match="permutation"):
        rs.new_game(order=order(1)[:-1] + [1])
    with pytest.raises(ValueError, match="seed must be"):
        rs.new_game(seed="7")
    with pytest.raises(ValueError, match="key must be"):
        rs.new_game(key=b"short")
    with pytest.raises(ValueError, match="seed or a key"):
        rs.new_game(seed=1, key=bytes(32))
    assert rs.new_game(seed=9, order=order(5)).hand == (5,)  # order overrides seed
    assert rs.new_game(key=bytes(32)) == rs.new_game(key=bytes(32))
    assert rs.new_game(key=bytes(32)) != rs.new_game(key=bytes([1]) * 32)


def test_r27_timeout_action_is_none_once_finished():
    state = play(game(*GAME_R), act(17, 2, 0), act(20, -1, 1), act(18, 2, 1))
    state = play(state, act(24, -1, 2), act(33, 1, 0), act(41, 2, 2), act(42, 5, 0, "v"))
    assert rs.timeout_action(state) is None


@pytest.mark.parametrize(
    "action",
    [
        None,
        [],
        {**act(1, 2, 0), "extra": 1},
        {k: v for k, v in act(1, 2, 0).items() if k != "flip"},
        {**act(1, 2, 0), "action": "pass"},
        {**act(1, 2, 0), "strip": "1"},
        {**act(1, 2, 0), "strip": True},
        {**act(1, 2, 0), "x": True},
        {**act(1, 2, 0), "y": 0.0},
        {**act(1, 2, 0), "orientation": "d"},
        {**act(1, 2, 0), "orientation": ["h"]},
        {**act(1, 2, 0), "flip": 0},
    ],
)
def test_r28_malformed_actions(action):
    assert error_code(game(*GAME_A), action) == "malformed"


def test_r29_canonical_order_both_flips_every_strip():
    state = play(game(*GAME_A), act(1, 2, 0))
    actions = rs.legal_actions(state, 1)
    keys = [(a["strip"], a["y"], a["x"], a["orientation"], a["flip"]) for a in actions]
    assert keys == sorted(keys)
    assert {a["strip"] for a in actions} == {3, 13}
    windows = {(a["x"], a["y"], a["orientation"]) for a in actions}
    assert len(actions) == 2 * 2 * len(windows)
    assert all(set(a) == {"action", "strip", "x", "y", "orientation", "flip"} for a in actions)
    assert rs.legal_actions(state, 0) == [] and rs.legal_actions(state, 2) == []


def test_r30_the_first_applicable_code_wins():
    state = play(game(*GAME_A), act(1, 2, 0))
    assert error_code(state, {"bad": 1}, seat=0) == "not_your_turn"  # before malformed
    assert error_code(state, act(7, 50, 50)) == "not_in_hand"  # before off_table
    assert error_code(state, act(3, 15, 0)) == "off_table"
    assert error_code(state, act(3, 3, 0)) == "gap"  # heights 1, 1, 0
    assert error_code(state, act(3, 2, 0)) == "exact_cover"
    assert error_code(state, act(3, 8, 8)) == "no_contact"
    finished = play(game(*GAME_R), act(17, 2, 0), act(20, -1, 1), act(18, 2, 1))
    finished = play(finished, act(24, -1, 2), act(33, 1, 0), act(41, 2, 2), act(42, 5, 0, "v"))
    assert error_code(finished, {"bad": 1}, seat=0) == "game_over"  # before everything
    assert list(rs.ERROR_CODES) == [
        "game_over", "not_your_turn", "malformed", "not_in_hand",
        "off_table", "gap", "exact_cover", "no_contact",
    ]  # fmt: skip


def test_r30_an_illegal_action_leaves_the_state_untouched():
    state = play(game(*GAME_A), act(1, 2, 0))
    data = rs.dump(state)
    with pytest.raises(rs.IllegalAction):
        rs.apply(state, 1, act(3, 3, 0))
    assert rs.dump(state) == data


def test_r31_view_shape_and_sameness_for_every_viewer():
    state = play(game(*GAME_A), act(1, 2, 0), act(3, 2, 1), act(13, 0, 0))
    views = {seat: rs.view(state, seat) for seat in (0, 1, None)}
    assert list(views[0]) == [
        "game", "players", "seat", "status", "turn", "current_seat", "colours", "scores",
        "visible_rats", "hand", "draw_pile", "unseen", "table", "placements", "cells",
        "last_scoring", "legal_actions", "result",
    ]  # fmt: skip
    strip = {k: v for k, v in views[0].items() if k not in ("seat", "legal_actions")}
    for seat in (1, None):
        assert strip == {k: v for k, v in views[seat].items() if k not in ("seat", "legal_actions")}
    assert (
        views[0]["legal_actions"] == rs.legal_actions(state, 0) and views[1]["legal_actions"] == []
    )
    view = views[0]
    assert view["hand"] == [{"id": s, "fields": list(rs.STRIPS[s])} for s in (10, 2)]
    assert view["draw_pile"] == 37 and [u["id"] for u in view["unseen"]] == sorted(state.pile)
    assert view["placements"][1] == {
        "strip": 1, "x": 2, "y": 0, "orientation": "h", "flip": False, "level": 1,
        "fields": ["red:chili", "green:basil", "red:saffron"], "seat": 0, "turn": 1,
    }  # fmt: skip
    assert view["cells"][0] == {"x": -1, "y": 0, "height": 1, "strip": 0, "symbol": "empty"}
    cells = [(c["y"], c["x"]) for c in view["cells"]]
    assert cells == sorted(cells)
    assert view["result"] is None and view["status"] == "active"
    assert rs.view(state, 0) is not view and rs.view(state, 0) == view  # fresh objects
    json.dumps(view)


def test_r31_finished_view():
    state = play(game(*GAME_R), act(17, 2, 0), act(20, -1, 1), act(18, 2, 1))
    state = play(state, act(24, -1, 2), act(33, 1, 0), act(41, 2, 2), act(42, 5, 0, "v"))
    view = rs.view(state, 0)
    assert view["status"] == "finished" and view["current_seat"] is None
    assert view["hand"] == [] and view["legal_actions"] == [] and view["turn"] == 4


def test_r32_result_shape():
    state = play(game(*GAME_R), act(17, 2, 0), act(20, -1, 1), act(18, 2, 1))
    state = play(state, act(24, -1, 2), act(33, 1, 0), act(41, 2, 2), act(42, 5, 0, "v"))
    assert rs.view(state, None)["result"] == {
        "reason": "rats",
        "rat_loser": 1,
        "final_scoring": [],
        "players": [
            {"seat": 0, "colour": "red", "placement_points": 0, "final_points": 0,
             "score": 0, "visible_rats": 4},
            {"seat": 1, "colour": "green", "placement_points": 1, "final_points": 0,
             "score": 1, "visible_rats": 3},
        ],
        "winners": [0],
    }  # fmt: skip


def test_r33_the_draw_order_is_the_only_secret():
    # Two games that differ only in the order of the unrevealed pile look the same.
    first = play(game(*GAME_A), act(1, 2, 0), act(3, 2, 1), act(13, 0, 0))
    rest = list(first.pile)
    other = rs.load({**rs.dump(first), "pile": rest[::-1]})
    assert other != first
    for seat in (0, 1, None):
        assert rs.view(other, seat) == rs.view(first, seat)
    assert rs.dump(first)["pile"] == rest  # dump keeps the secret


def test_r33_move_effects_reveal_the_next_hand_on_the_turn_ending_move():
    start = play(game(*GAME_A), act(1, 2, 0))
    mid = play(start, act(3, 2, 1))
    assert rs.move_effects(start, mid, 1, act(3, 2, 1)) == {
        "revealed": None, "revealed_ids": None, "buried": None, "new_turn": False,
    }  # fmt: skip
    end = play(mid, act(13, 0, 0))
    assert rs.move_effects(mid, end, 1, act(13, 0, 0)) == {
        "revealed": [10, 2], "revealed_ids": [10, 2], "buried": None, "new_turn": True,
    }  # fmt: skip
    assert rs.public_revealed([10, 2]) == [
        {"id": 10, "fields": ["red:paprika", "green:wasabi", "green:jalapeno"]},
        {"id": 2, "fields": ["green:jalapeno", "red:paprika", "green:cardamom"]},
    ]
    assert rs.public_revealed(None) is None


def test_dump_load_round_trip_and_json():
    state = play(game(*GAME_A), act(1, 2, 0), act(3, 2, 1), act(13, 0, 0))
    data = json.loads(json.dumps(rs.dump(state)))
    assert rs.load(data) == state
    assert rs.load(data).board.grid == state.board.grid
    bad = {**data, "pile": data["pile"][1:]}
    with pytest.raises(ValueError, match="exactly one place"):
        rs.load(bad)
    moved = json.loads(json.dumps(data))
    moved["placements"][1]["x"] = 40
    with pytest.raises(ValueError, match="illegal"):
        rs.load(moved)


def test_place_keeps_the_board_it_started_from():
    state = game(*GAME_A)
    grid = dict(state.board.grid)
    place(state.board, 1, 2, 0, "h", False)
    assert state.board.grid == grid
