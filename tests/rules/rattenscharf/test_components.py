"""Components, table and geometry: R1-R9."""

import json
from collections import Counter
from pathlib import Path

import pytest

from games.kinds.rattenscharf import rules as rs
from games.kinds.rattenscharf.rules import strips as strip_data
from games.kinds.rattenscharf.rules.board import window

from .helpers import GAME_A, act, game, play

PACKAGED = Path(strip_data.__file__).with_name("strips.json")
SPICES = [
    "red:chili", "red:paprika", "red:saffron", "red:cinnamon",
    "green:jalapeno", "green:basil", "green:cardamom", "green:wasabi",
]  # fmt: skip
MIRROR = dict(zip(SPICES, SPICES[4:] + SPICES[:4], strict=True))
MIRROR.update({"red:rat": "green:rat", "green:rat": "red:rat", "empty": "empty"})


def test_r1_seat_0_is_red_and_starts():
    state = rs.new_game(seed=1)
    view = rs.view(state, None)
    assert view["colours"] == ["red", "green"]
    assert view["current_seat"] == 0 and view["turn"] == 1
    assert rs.COLOURS == ("red", "green")


def test_r2_symbols_spices_belong_to_their_colour_and_start_is_no_spice():
    assert list(strip_data.SPICE_SEAT) == SPICES
    assert [strip_data.SPICE_SEAT[s] for s in SPICES] == [0] * 4 + [1] * 4
    assert strip_data.RAT_SEAT == {"red:rat": 0, "green:rat": 1}
    assert "start" not in strip_data.SPICE_SEAT and "empty" not in strip_data.SPICE_SEAT


def test_r3_strip_data_shape_and_start_strip():
    # The one copy of the strip list, in the shape docs/rules/rattenscharf.md#R3 gives.
    data = json.loads(PACKAGED.read_text())
    assert set(data) == {"game", "note", "colours", "spices", "start", "strips"}
    assert data["start"] == {"id": 0, "fields": ["empty", "start", "empty"]}
    assert [strip["id"] for strip in data["strips"]] == list(range(1, 43))
    assert rs.STRIPS[0] == ("empty", "start", "empty")
    assert sorted(rs.STRIPS) == list(range(43))
    assert all(len(fields) == 3 for fields in rs.STRIPS.values())


def test_r3_the_engine_rejects_strip_data_of_another_shape(tmp_path):
    data = json.loads(PACKAGED.read_text())
    data["strips"][0]["fields"] = ["red:chili", "red:pepper", "empty"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(rs.StripDataError):
        strip_data._load(path)


def test_r4_the_reconstructed_list_counts_and_symmetry():
    fields = Counter(f for strip in range(1, 43) for f in rs.STRIPS[strip])
    assert sum(fields.values()) == 126
    assert sum(fields[s] for s in SPICES) == 96
    assert fields["red:rat"] == fields["green:rat"] == 8 and fields["empty"] == 14
    assert [fields[s] for s in SPICES] == [15, 13, 10, 10] * 2
    for k in range(1, 22):
        assert rs.STRIPS[2 * k] == tuple(MIRROR[f] for f in rs.STRIPS[2 * k - 1])
    for strip in range(1, 43):
        a, b, c = rs.STRIPS[strip]
        assert (a != b or a not in SPICES) and (b != c or b not in SPICES)
    both = [
        s
        for s in range(1, 43)
        if {f.split(":")[0] for f in rs.STRIPS[s] if f in SPICES} == {"red", "green"}
    ]
    assert len(both) == 34
    kinds = Counter(
        "".join(sorted("S" if f in SPICES else "E" if f == "empty" else "R" for f in rs.STRIPS[s]))
        for s in range(1, 43)
    )
    assert kinds == {"SSS": 16, "ESS": 12, "RSS": 10, "ERS": 2, "RRS": 2}
    assert [s for s in range(1, 43) if rs.STRIPS[s][0] == rs.STRIPS[s][2] in SPICES] == [
        3,
        4,
        27,
        28,
    ]


def test_r5_scores_are_unlimited_integers():
    state = play(game(*GAME_A), act(1, 2, 0), act(3, 2, 1))
    data = rs.dump(state)
    data["points"] = [0, 45]  # the box's discs hold 45 points; the engine has no cap
    state = play(rs.load(data), act(13, 0, 0))
    assert rs.view(state, None)["scores"] == [0, 46]


def test_r6_the_table_is_31_by_31():
    assert rs.view(rs.new_game(seed=2), None)["table"] == {"min": -15, "max": 15}


def test_r7_orientation_and_flip_put_fields_on_cells():
    assert window(2, 0, "h") == ((2, 0), (3, 0), (4, 0))
    assert window(2, 0, "v") == ((2, 0), (2, 1), (2, 2))
    for flip, fields in ((False, rs.STRIPS[1]), (True, rs.STRIPS[1][::-1])):
        state = play(game(*GAME_A), act(1, 2, 0, "v", flip))
        cells = {(c["x"], c["y"]): c["symbol"] for c in rs.view(state, None)["cells"]}
        assert [cells[2, y] for y in range(3)] == list(fields)
        assert rs.view(state, None)["placements"][1]["fields"] == list(fields)


def test_r8_levels_and_heights_follow_the_top_strip():
    state = play(game(*GAME_A), act(1, 2, 0), act(3, 2, 1), act(13, 0, 0))
    view = rs.view(state, None)
    assert [p["level"] for p in view["placements"]] == [1, 1, 1, 2]
    heights = {(c["x"], c["y"]): (c["height"], c["strip"]) for c in view["cells"]}
    assert heights[0, 0] == (2, 13) and heights[-1, 0] == (1, 0) and heights[3, 0] == (1, 1)


def test_r9_setup_lays_the_start_strip_at_the_centre():
    view = rs.view(rs.new_game(seed=3), None)
    assert view["placements"] == [
        {"strip": 0, "x": -1, "y": 0, "orientation": "h", "flip": False, "level": 1,
         "fields": ["empty", "start", "empty"], "seat": None, "turn": 0}
    ]  # fmt: skip
    assert [(c["x"], c["y"], c["symbol"]) for c in view["cells"]] == [
        (-1, 0, "empty"), (0, 0, "start"), (1, 0, "empty")
    ]  # fmt: skip
