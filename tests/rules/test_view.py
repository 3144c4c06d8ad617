"""The per-seat view (docs/api.md "The engine's entry points") and the information rule P23."""

import json

import pytest

from games.kinds.piratz import rules as piratz

VIEW_KEYS = [
    "game",
    "players",
    "seat",
    "status",
    "round",
    "current_seat",
    "phase",
    "last_round",
    "draw_pile",
    "discard_pile",
    "face_up",
    "buried",
    "spades",
    "cubes",
    "collected",
    "unseen",
    "legal_actions",
    "result",
]


def test_view_has_exactly_the_contract_keys_and_values(stage):
    state = stage(3, face_up=[11, 1], buried=[(2, 13)], discard=[14], collected=[[], [12], []])
    view = piratz.view(state, 1)
    assert list(view) == VIEW_KEYS
    assert view["game"] == "piratz" and view["seat"] == 1 and view["status"] == "active"
    assert view["face_up"] == [piratz.card(11), piratz.card(1)]
    assert view["buried"] == [{"seat": 2, "card": piratz.card(13)}]
    assert view["spades"] == [True, True, False]
    assert view["collected"][1] == {"count": 1, "cards": [piratz.card(12)]}
    assert view["draw_pile"] == len(state.draw) and view["discard_pile"] == 1
    assert view["legal_actions"] == []  # seat 0 is to move
    assert piratz.view(state, 0)["legal_actions"] == piratz.legal_actions(state, 0)
    assert view["result"] is None
    json.dumps(view)


def test_a_spectator_sees_no_legal_actions(stage):
    view = piratz.view(stage(3), None)
    assert view["seat"] is None and view["legal_actions"] == []


@pytest.mark.parametrize("seat", [-1, 3, True, "0", 1.0])
def test_view_rejects_a_seat_not_in_the_game(stage, seat):
    with pytest.raises(piratz.IllegalAction) as caught:
        piratz.view(stage(3), seat)
    assert caught.value.code == "unknown_seat"


def test_p23_unseen_is_draw_plus_discard_sorted_by_id(stage):
    state = stage(3, draw=[40, 3, 25], discard=[9, 1], rest=2)
    view = piratz.view(state, 0)
    assert [c["id"] for c in view["unseen"]] == [1, 3, 9, 25, 40]


def test_p23_the_draw_order_never_appears_in_a_view():
    state = piratz.new_game(4, seed=2)
    order = json.dumps(list(state.draw))
    for seat in (None, 0, 1, 2, 3):
        text = json.dumps(piratz.view(state, seat))
        assert order not in text
        assert list(state.draw) != [c["id"] for c in piratz.view(state, seat)["unseen"]]


def test_p23_blind_mode_hides_collections_and_unseen_until_the_end(stage):
    state = stage(3, collected=[[11], [12, 13], []], blind=True)
    for seat in (None, 0, 1, 2):
        view = piratz.view(state, seat)
        assert view["collected"] == [
            {"count": 1, "cards": None},
            {"count": 2, "cards": None},
            {"count": 0, "cards": None},
        ]
        assert view["unseen"] is None
    done = stage(3, collected=[[11], [12, 13], []], blind=True, finished=True, rest="discard")
    view = piratz.view(done, 1)
    assert view["collected"][1]["cards"] == [piratz.card(12), piratz.card(13)]
    assert view["unseen"] == [piratz.card(c) for c in sorted(done.discard)]


def test_a_finished_view_has_the_result_and_no_turn(stage):
    state = stage(3, collected=[[11], [20], []], rest="discard", finished=True)
    view = piratz.view(state, 0)
    assert view["status"] == "finished"
    assert (view["current_seat"], view["phase"], view["legal_actions"]) == (None, None, [])
    assert view["result"] == piratz.result(state)
    awarded = {t: len(a) for t, a in view["result"]["awards"].items()}
    for index, treasure in enumerate(piratz.TREASURES):
        assert view["cubes"][treasure] == list(state.cubes[index][awarded[treasure] :])


def test_mutating_a_view_changes_neither_the_state_nor_the_next_view(stage):
    state = stage(3, face_up=[32, 1], buried=[(2, 13)], collected=[[20], [], []], discard=[14])
    before = piratz.dump(state)
    view = piratz.view(state, 0)
    expected = piratz.view(state, 0)
    view["face_up"][0]["treasures"]["rings"] = 99
    view["face_up"][0]["id"] = 0
    view["buried"][0]["card"]["treasures"].clear()
    view["collected"][0]["cards"][0]["treasures"]["gems"] = 5
    view["unseen"][0]["rat"] = "x"
    view["cubes"]["rings"].append(9)
    view["spades"][0] = None
    view["legal_actions"][0]["action"] = "boom"
    view["legal_actions"].clear()
    assert piratz.dump(state) == before
    assert piratz.view(state, 0) == expected
    assert piratz.card(32) == {
        "id": 32,
        "treasures": {"rings": 1, "coins": 1},
        "rat": False,
        "skull": False,
    }


def test_mutating_a_finished_views_result_does_not_leak(stage):
    state = stage(3, collected=[[11], [20], []], rest="discard", finished=True)
    view = piratz.view(state, None)
    view["result"]["players"][0]["items"]["rings"] = 50
    view["result"]["awards"]["rings"].clear()
    assert piratz.view(state, None)["result"] == piratz.result(state)
    assert piratz.view(state, None)["result"]["awards"]["rings"]
