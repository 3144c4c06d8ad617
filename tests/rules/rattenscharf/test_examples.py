"""The five worked examples of docs/rules/rattenscharf.md, exactly (diagrams, codes, scores)."""

from games.kinds.rattenscharf import rules as rs
from games.kinds.rattenscharf.rules.board import final_scoring

from .helpers import GAME_A, GAME_R, GAME_S, act, assert_diagram, error_code, game, play


def _events(state):
    return rs.view(state, None)["last_scoring"]


def _example1():
    return play(game(*GAME_A), act(1, 2, 0), act(3, 2, 1), act(13, 0, 0))


def _example3():
    return play(_example1(), act(10, 3, 2), act(2, 4, 0, "v", True))


def test_example_1_opening_and_a_legal_overlap():
    state = play(game(*GAME_A), act(1, 2, 0))
    assert _events(state) == []
    assert_diagram(
        state,
        """
y\\x    -1    0    1    2    3    4    5
 -1     .    .    .    .    .    .    .
  0  ---1 Sta1 ---1 rCh1 gBa1 rSa1    .
  1     .    .    .    .    .    .    .
""",
    )
    assert rs.current_seat(state) == 1 and state.hand == (3, 13)
    state = play(state, act(3, 2, 1))
    assert _events(state) == [] and rs.view(state, None)["scores"] == [0, 0]
    state = play(state, act(13, 0, 0))
    assert state.placements[-1][5] == 2  # level 2
    assert _events(state) == [
        {"seat": 1, "spice": "green:basil", "cells": [[2, 0], [3, 0]], "points": 1}
    ]
    view = rs.view(state, None)
    assert view["scores"] == [0, 1] and view["visible_rats"] == [0, 0]
    assert view["status"] == "active" and view["turn"] == 3 and view["current_seat"] == 0
    assert_diagram(
        state,
        """
y\\x    -1    0    1    2    3    4    5
 -1     .    .    .    .    .    .    .
  0  ---1 gCa2 rCh2 gBa2 gBa1 rSa1    .
  1     .    .    . gJa1 rPa1 gJa1    .
  2     .    .    .    .    .    .    .
""",
    )


def test_example_2_illegal_placements_and_their_codes():
    start = game(*GAME_A)
    assert error_code(start, act(1, -1, 0)) == "exact_cover"
    assert error_code(start, act(1, -4, -1)) == "no_contact"
    assert error_code(start, act(1, -1, 1)) is None
    assert error_code(start, act(1, 2, 0, "v")) is None
    turn2 = play(start, act(1, 2, 0))
    assert error_code(turn2, act(13, 2, 0)) == "exact_cover"
    assert error_code(turn2, act(13, 3, 0)) == "gap"
    turn3 = _example1()
    assert turn3.hand == (10, 2)
    assert error_code(turn3, act(10, 1, 0)) == "gap"
    assert error_code(turn3, act(10, 0, 1)) == "gap"
    assert error_code(turn3, act(10, 2, 0, "v")) == "gap"
    assert error_code(turn3, act(2, 4, 0, "v")) == "gap"
    assert error_code(turn3, act(10, 2, 1)) == "exact_cover"
    assert error_code(turn3, act(10, -4, 1)) == "no_contact"
    assert error_code(turn3, act(7, 3, 2)) == "not_in_hand"
    assert error_code(turn3, act(10, 3, 2), seat=1) == "not_your_turn"
    # Game E: row 0 filled from x = -1 to 13.
    state = play(game(1, 2, 3, 4, 5), act(1, 2, 0), act(2, 5, 0), act(3, 8, 0), act(4, 11, 0))
    row = {c["x"] for c in rs.view(state, None)["cells"] if c["y"] == 0}
    assert row == set(range(-1, 14))
    assert state.hand == (5,) and rs.current_seat(state) == 0
    assert error_code(state, act(5, 14, 0)) == "off_table"
    assert error_code(state, act(5, 13, 0)) == "gap"
    assert error_code(state, act(5, 14, 0, "v")) is None
    assert error_code(state, act(5, 14, -2, "v")) is None
    assert error_code(state, act(5, 14, 14, "v")) == "off_table"


def test_example_3_the_printed_scoring_example():
    state = play(_example1(), act(10, 3, 2))
    assert _events(state) == [
        {"seat": 0, "spice": "red:paprika", "cells": [[3, 1], [3, 2]], "points": 1}
    ]
    assert rs.view(state, None)["scores"] == [1, 1]
    assert_diagram(
        state,
        """
y\\x    -1    0    1    2    3    4    5
  0  ---1 gCa2 rCh2 gBa2 gBa1 rSa1    .
  1     .    .    . gJa1 rPa1 gJa1    .
  2     .    .    .    . rPa1 gWa1 gJa1
""",
    )
    state = play(state, act(2, 4, 0, "v", True))
    assert state.placements[-1][5] == 2
    assert _events(state) == [
        {"seat": 0, "spice": "red:paprika", "cells": [[3, 1], [4, 1], [3, 2]], "points": 2},
        {"seat": 1, "spice": "green:jalapeno", "cells": [[4, 2], [5, 2]], "points": 1},
    ]
    view = rs.view(state, None)
    assert view["scores"] == [3, 2] and view["current_seat"] == 1 and view["turn"] == 4
    assert_diagram(
        state,
        """
y\\x    -1    0    1    2    3    4    5
  0  ---1 gCa2 rCh2 gBa2 gBa1 gCa2    .
  1     .    .    . gJa1 rPa1 rPa2    .
  2     .    .    .    . rPa1 gJa2 gJa1
""",
    )
    # "If this were the final layer": basil 1 and jalapeno 1 for green, paprika 2 for red.
    final = {(spice, points) for _, spice, _, points in final_scoring(state.board)}
    assert final == {("green:basil", 1), ("green:jalapeno", 1), ("red:paprika", 2)}


def test_example_4a_covering_a_spice_with_the_same_spice_scores_nothing():
    state = play(_example3(), act(9, 3, 0, "v"))
    assert state.placements[-1][5] == 2
    assert _events(state) == []
    assert rs.view(state, None)["scores"] == [3, 2]
    assert_diagram(
        state,
        """
y\\x    -1    0    1    2    3    4    5
  0  ---1 gCa2 rCh2 gBa2 gBa2 gCa2    .
  1     .    .    . gJa1 rCi2 rPa2    .
  2     .    .    .    . rCh2 gJa2 gJa1
""",
    )


def test_example_4b_a_shrunken_group_without_a_new_cell_scores_nothing():
    state = play(game(*GAME_S), act(7, -4, 0, flip=True), act(38, -3, 1, flip=True))
    assert _events(state) == [
        {"seat": 0, "spice": "red:chili", "cells": [[-3, 0], [-3, 1]], "points": 1}
    ]
    state = play(state, act(17, -3, 2, "v"))
    assert _events(state) == [
        {"seat": 0, "spice": "red:chili", "cells": [[-3, 0], [-3, 1], [-3, 2]], "points": 2}
    ]
    assert rs.view(state, None)["scores"] == [3, 0]
    assert_diagram(
        state,
        """
y\\x    -5   -4   -3   -2   -1    0
  0     . gWa1 rCh1 rPa1 ---1 Sta1
  1     .    . rCh1 gCa1 ---1    .
  2     .    . rCh1    .    .    .
  3     .    . rRt1    .    .    .
  4     .    . gCa1    .    .    .
""",
    )
    state = play(state, act(31, -3, 0))
    assert state.placements[-1][5] == 2
    assert _events(state) == []
    assert rs.view(state, None)["scores"] == [3, 0]
    assert_diagram(
        state,
        """
y\\x    -5   -4   -3   -2   -1    0
  0     . gWa1 ---2 gWa2 rSa2 Sta1
  1     .    . rCh1 gCa1 ---1    .
  2     .    . rCh1    .    .    .
""",
    )


def test_example_5_rats_end_the_game_for_the_mover_only():
    state = play(game(*GAME_R), act(17, 2, 0), act(20, -1, 1), act(18, 2, 1))
    view = rs.view(state, None)
    assert view["status"] == "active" and view["visible_rats"] == [2, 1]
    assert_diagram(
        state,
        """
y\\x    -1    0    1    2    3    4    5
  0  ---1 Sta1 ---1 rCh1 rRt1 gCa1    .
  1  rRt1 gBa1 rCh1 gJa1 gRt1 rSa1    .
""",
    )
    state = play(state, act(24, -1, 2))
    assert rs.view(state, None)["visible_rats"] == [3, 1]
    assert not rs.is_finished(state)  # three rats mid-turn do no harm
    state = play(state, act(33, 1, 0))
    assert state.placements[-1][5] == 2
    assert _events(state) == [
        {"seat": 1, "spice": "green:jalapeno", "cells": [[2, 0], [2, 1]], "points": 1}
    ]
    view = rs.view(state, None)
    assert view["visible_rats"] == [2, 1] and view["scores"] == [0, 1]
    assert view["status"] == "active" and view["current_seat"] == 1
    assert_diagram(
        state,
        """
y\\x    -1    0    1    2    3    4    5
  0  ---1 Sta1 rCi2 gJa2 ---2 gCa1    .
  1  rRt1 gBa1 rCh1 gJa1 gRt1 rSa1    .
  2  rCi1 rRt1 gJa1    .    .    .    .
""",
    )
    state = play(state, act(41, 2, 2), act(42, 5, 0, "v"))
    assert_diagram(
        state,
        """
y\\x    -1    0    1    2    3    4    5
  0  ---1 Sta1 rCi2 gJa2 ---2 gCa1 gRt1
  1  rRt1 gBa1 rCh1 gJa1 gRt1 rSa1 rCi1
  2  rCi1 rRt1 gJa1 rRt1 gWa1 gRt1 rRt1
""",
    )
    view = rs.view(state, None)
    assert view["visible_rats"] == [4, 3]
    assert view["status"] == "finished" and view["current_seat"] is None
    result = view["result"]
    assert result["reason"] == "rats" and result["rat_loser"] == 1
    assert result["winners"] == [0] and result["final_scoring"] == []
    assert [p["score"] for p in result["players"]] == [0, 1]  # green led, and lost
    assert [p["final_points"] for p in result["players"]] == [0, 0]


def _timeout(state):
    action = rs.timeout_action(state)
    assert action in rs.legal_actions(state, rs.current_seat(state))
    return action


def test_example_5_timeout_vectors():
    state = play(game(*GAME_R), act(17, 2, 0), act(20, -1, 1), act(18, 2, 1))
    assert _timeout(state) == act(33, 1, 0)
    state = play(state, act(33, 1, 0))
    assert _timeout(state) == act(24, -1, -1, flip=True)
    state = play(state, act(24, -1, -1, flip=True))
    assert _events(state) == [
        {"seat": 0, "spice": "red:cinnamon", "cells": [[1, -1], [1, 0]], "points": 1}
    ]
    assert rs.view(state, None)["visible_rats"][0] == 2


def test_game_a_timeout_vectors():
    state = game(*GAME_A)
    assert _timeout(state) == act(1, -1, -1)
    state = play(state, act(1, 2, 0), act(3, 2, 1))
    assert _timeout(state) == act(13, 0, 0)
    state = play(state, act(13, 0, 0))
    assert _timeout(state) == act(10, 1, 2, flip=True)
