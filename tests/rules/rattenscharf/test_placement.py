"""Placement legality: R10-R15 (their codes are R30's)."""

import pytest

from games.kinds.rattenscharf import rules as rs

from .helpers import GAME_A, GAME_S, act, error_code, game, naive_legal_windows, play


def test_r10_every_cell_must_lie_on_the_table():
    state = game(*GAME_A)
    state = play(state, act(1, -1, 1, "v"))  # (-1, 1) .. (-1, 3)
    # Cells at x = -16 or y = 16 are off the table, whatever else holds.
    assert error_code(state, act(3, -17, 0)) == "off_table"
    assert error_code(state, act(3, 0, 14, "v")) == "off_table"
    assert error_code(state, act(3, 15, 15)) == "off_table"


def test_r11_the_three_cells_have_one_height():
    state = play(game(*GAME_A), act(1, 2, 0))
    assert error_code(state, act(3, 3, 0)) == "gap"  # heights 1, 1, 0
    assert error_code(state, act(3, 1, -1, "v")) == "gap"  # heights 0, 1, 0


def test_r12_never_exactly_on_one_strip_but_hidden_by_several_is_fine():
    state = play(game(*GAME_A), act(1, 2, 0), act(3, 2, 1))
    assert error_code(state, act(13, 2, 0)) == "exact_cover"
    assert error_code(state, act(13, 2, 1)) == "exact_cover"
    # Strip 1 on (2..4, 0) ends up wholly hidden by two different strips (13, then 2).
    state = play(game(*GAME_A), act(1, 2, 0), act(3, 2, 1), act(13, 0, 0), act(10, 5, 0, "v"))
    assert error_code(state, act(2, 3, 0)) is None
    state = play(state, act(2, 3, 0))
    assert all(c["strip"] != 1 for c in rs.view(state, None)["cells"])


def test_r13_contact_through_an_edge_not_a_corner():
    state = game(*GAME_A)
    assert error_code(state, act(1, -4, -1)) == "no_contact"  # corner only
    assert error_code(state, act(1, -4, 0)) is None  # edge (-2,0)|(-1,0)
    assert error_code(state, act(1, 2, 1)) == "no_contact"  # corner (1,0)/(2,1)
    assert error_code(state, act(1, 2, 0)) is None


def test_r14_a_strip_may_lie_on_the_strip_laid_earlier_this_turn():
    state = play(game(*GAME_A), act(1, 2, 0), act(3, 2, 1))
    assert error_code(state, act(13, 2, 1)) == "exact_cover"
    state = play(game(*GAME_A), act(1, 2, 0), act(3, 4, 1))  # (4..6, 1)
    assert error_code(state, act(13, 3, 1)) == "gap"
    state = play(game(*GAME_A), act(1, 2, 0), act(3, 5, 0))  # row 0: -1..7
    assert error_code(state, act(13, 3, 0)) is None  # on strip 1 and strip 3 of this turn


def test_r15_a_legal_placement_always_exists_and_legal_actions_match_brute_force():
    state = play(game(*GAME_S), act(7, -4, 0, flip=True), act(38, -3, 1, flip=True))
    windows = {(a["x"], a["y"], a["orientation"]) for a in rs.legal_actions(state, 1)}
    assert windows and windows == set(naive_legal_windows(state))


def test_r15_too_many_strips_are_rejected(tmp_path):
    import json

    from games.kinds.rattenscharf.rules import strips as strip_data

    data = json.loads(strip_data.Path(strip_data.__file__).with_name("strips.json").read_text())
    data["strips"] = [{"id": i, "fields": ["empty"] * 3} for i in range(1, 102)]
    path = tmp_path / "many.json"
    path.write_text(json.dumps(data))
    with pytest.raises(rs.StripDataError):
        strip_data._load(path)
