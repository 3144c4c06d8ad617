"""State as a value: equality, copying, dump/load round trips and refusing corrupt dumps."""

import copy
import json

import pytest

from games.kinds.piratz import rules as piratz


def test_load_of_dump_equals_the_state_and_dump_is_json(stage):
    state = stage(3, face_up=[1, 11], buried=[(2, 13)], discard=[14], collected=[[12], [], []])
    data = piratz.dump(state)
    assert json.loads(json.dumps(data)) == data
    assert piratz.load(json.loads(json.dumps(data))) == state
    assert hash(piratz.load(data)) == hash(state)


def test_dump_holds_the_secret_key_as_hex():
    data = piratz.dump(piratz.new_game(2, seed=1))
    assert len(bytes.fromhex(data["key"])) == 32


def test_states_differing_in_any_field_are_unequal(stage):
    state = stage(3)
    assert state != piratz.apply(state, 0, {"action": "reveal"})
    assert state != stage(3, blind=True)
    assert state.__eq__("state") is NotImplemented
    assert state != piratz.dump(state)


def test_copy_is_equal_and_independent(stage):
    state = stage(3, face_up=[11])
    twin = state.copy()
    assert twin == state and twin is not state
    twin.round = 9
    assert state.round == 1


def test_repr_leaves_out_the_key_and_draw_order():
    state = piratz.new_game(3, seed=1)
    text = repr(state)
    assert state.key.hex() not in text and str(list(state.draw)) not in text
    assert "players=3" in text


def test_apply_never_mutates_its_input(stage):
    state = stage(3, face_up=[1, 11, 2], phase="alarm", collected=[[12], [], []])
    before = copy.deepcopy(piratz.dump(state))
    after = piratz.apply(state, 0, {"action": "resolve_alarm", "keep": 1, "bury": 11})
    assert piratz.dump(state) == before
    assert after.collected[0] == (12, 1)


def corrupt(change):
    data = piratz.dump(piratz.new_game(3, seed=4))
    change(data)
    return data


def _set(**values):
    return lambda data: data.update(values)


@pytest.mark.parametrize(
    "change",
    [
        _set(game="chess"),
        _set(format=2),
        lambda d: d.pop("round"),
        lambda d: d.update(extra=1),
        _set(players=5),
        _set(players=True),
        _set(blind=0),
        _set(key="00"),
        _set(key="zz" * 32),
        _set(key=5),
        _set(round=0),
        _set(reshuffles=-1),
        _set(finished=1),
        _set(current_seat=3),
        _set(phase="bidding"),
        _set(finished=True),  # a current seat while finished
        _set(finished=True, current_seat=None, phase=None),  # not the last round
        _set(  # a spade still on the table after the end
            finished=True,
            current_seat=None,
            phase=None,
            last_round=True,
            spades=[True, False, True],
        ),
        _set(draw="1,2"),
        lambda d: d["draw"].append(True),
        lambda d: d["draw"].pop(),  # a card missing
        lambda d: d["discard"].append(d["draw"][0]),  # a card twice
        lambda d: d.update(buried=[[0]]),
        lambda d: d.update(buried=[[5, d["draw"].pop()]], spades=[True, True, True]),
        lambda d: d.update(buried=[[0, d["draw"].pop()]]),  # seat 0 still holds its spade
        lambda d: d.update(spades=[True, True]),
        lambda d: d.update(spades=[False, True, True]),  # current seat without a spade
        lambda d: d.update(collected=[[], []]),
        lambda d: d.update(phase="alarm"),  # no rats face up
        lambda d: d.update(phase="decide"),  # nothing face up
        lambda d: d.update(face_up=[1, 2], draw=[c for c in d["draw"] if c not in (1, 2)]),
        lambda d: d.update(draw=[], discard=d["draw"]),  # empty draw outside the last round
        lambda d: d["cubes"].pop("shells"),
        _set(cubes=[[4, 1]] * 6),
        lambda d: d["cubes"].update(rings=[1, 4]),
        lambda d: d["cubes"].update(rings=[4]),
        lambda d: d["cubes"].update(rings=[4, True]),
        lambda d: d["cubes"].update(rings=[4, 4], coins=[4, 4]),
        lambda d: d["cubes"].update(rings=[5, 1]),
        lambda d: d.update(draw=[c for c in d["draw"] if c != 7]),  # skull left out in 3p
    ],
)
def test_load_refuses_an_inconsistent_dump(change):
    with pytest.raises(ValueError, match="invalid piratz state"):
        piratz.load(corrupt(change))


def test_load_refuses_non_objects():
    with pytest.raises(ValueError, match="invalid piratz state"):
        piratz.load([])


def test_load_refuses_two_buried_cards_for_one_seat(stage):
    data = piratz.dump(stage(3, buried=[(1, 13)], current=0))
    data["buried"].append([1, data["draw"].pop()])
    with pytest.raises(ValueError, match="at most once"):
        piratz.load(data)


def test_load_accepts_a_finished_game(stage):
    state = stage(3, finished=True, rest="discard")
    assert piratz.load(piratz.dump(state)) == state
    assert piratz.is_finished(state)
