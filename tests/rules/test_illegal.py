"""IllegalAction: every code, the check order, and that a rejected action changes nothing."""

import pickle

import pytest

from games.kinds.piratz import rules as piratz

from .builders import REVEAL, alarm, pass_


def rejected(state, seat, action):
    """Apply an illegal action; return its code after checking the state is untouched."""
    before = piratz.dump(state)
    copy = piratz.load(before)
    with pytest.raises(piratz.IllegalAction) as caught:
        piratz.apply(state, seat, action)
    assert piratz.dump(state) == before and state == copy
    assert isinstance(caught.value, ValueError)
    assert caught.value.code in piratz.ERROR_CODES
    assert str(caught.value)
    return caught.value.code


@pytest.mark.parametrize(
    "action",
    [
        None,
        "reveal",
        ["reveal"],
        {},
        {"treasure": "rings"},
        {"action": 3},
        {"action": None},
        {"action": "reveal", "extra": 1},
        {"action": "end_turn", "bury": None},
        {"action": "pass", "treasure": "rings"},
        {"action": "pass", "bury": None},
        {"action": "pass", "treasure": "rings", "bury": None, "keep": 1},
        {"action": "pass", "treasure": "rings", "keep": None},
        {"action": "pass", "treasure": 1, "bury": None},
        {"action": "pass", "treasure": None, "bury": None},
        {"action": "pass", "treasure": "rings", "bury": True},
        {"action": "pass", "treasure": "rings", "bury": False},
        {"action": "pass", "treasure": "rings", "bury": "11"},
        {"action": "pass", "treasure": "rings", "bury": 11.0},
        {"action": "resolve_alarm", "keep": 1},
        {"action": "resolve_alarm", "keep": True, "bury": 2},
        {"action": "resolve_alarm", "keep": "1", "bury": 2},
        {"action": "resolve_alarm", "keep": None, "bury": 2},
        {"action": "resolve_alarm", "keep": 1, "bury": [2]},
    ],
)
def test_malformed_action(stage, action):
    assert rejected(stage(3, face_up=[11]), 0, action) == "malformed_action"


@pytest.mark.parametrize("name", ["draw", "Reveal", "", "undo"])
def test_unknown_action(stage, name):
    assert rejected(stage(3), 0, {"action": name}) == "unknown_action"


@pytest.mark.parametrize("seat", [-1, 3, 10, True, None, "0"])
def test_unknown_seat(stage, seat):
    assert rejected(stage(3), seat, REVEAL) == "unknown_seat"


def test_game_finished(stage):
    assert rejected(stage(3, finished=True, rest="discard"), 0, REVEAL) == "game_finished"


def test_not_your_turn(stage):
    state = stage(3, current=1)
    assert rejected(state, 0, REVEAL) == "not_your_turn"
    assert rejected(state, 2, pass_("rings")) == "not_your_turn"
    assert piratz.legal_actions(state, 0) == []


@pytest.mark.parametrize(
    ("phase", "action"),
    [
        ("turn", {"action": "end_turn"}),
        ("turn", alarm(1, 11)),
        ("decide", REVEAL),
        ("decide", alarm(1, 11)),
        ("alarm", REVEAL),
        ("alarm", {"action": "end_turn"}),
        ("alarm", pass_("rings", 2)),
    ],
)
def test_wrong_phase(stage, phase, action):
    face_up = [1, 11, 2] if phase == "alarm" else [1, 11]
    assert rejected(stage(3, face_up=face_up, phase=phase), 0, action) == "wrong_phase"


@pytest.mark.parametrize("treasure", ["gold", "Rings", "ring", ""])
def test_unknown_treasure(stage, treasure):
    assert rejected(stage(3, face_up=[11]), 0, pass_(treasure, 11)) == "unknown_treasure"


def test_card_not_face_up(stage):
    state = stage(3, face_up=[11, 12], buried=[(1, 13)], current=0)
    assert rejected(state, 0, pass_("rings", 11)) == "card_not_face_up"  # just taken
    assert rejected(state, 0, pass_("rings", 13)) == "card_not_face_up"  # buried
    assert rejected(state, 0, pass_("rings", 14)) == "card_not_face_up"  # in the draw pile
    assert rejected(state, 0, pass_("rings", 999)) == "card_not_face_up"
    in_alarm = stage(3, face_up=[1, 11, 2], phase="alarm")
    assert rejected(in_alarm, 0, alarm(1, 1)) == "card_not_face_up"  # the kept rat


def test_bury_required(stage):
    assert rejected(stage(3, face_up=[11, 12]), 0, pass_("rings")) == "bury_required"
    in_alarm = stage(3, face_up=[1, 2], phase="alarm")
    assert rejected(in_alarm, 0, alarm(1, None)) == "bury_required"


def test_bury_not_allowed(stage):
    assert rejected(stage(3), 0, pass_("rings", 11)) == "bury_not_allowed"
    took_all = stage(3, face_up=[11, 20])
    assert rejected(took_all, 0, pass_("rings", 11)) == "bury_not_allowed"


def test_not_alarm_rat(stage):
    state = stage(3, face_up=[1, 11, 2], phase="alarm")
    assert rejected(state, 0, alarm(11, 1)) == "not_alarm_rat"  # not a rat
    assert rejected(state, 0, alarm(3, 1)) == "not_alarm_rat"  # a rat, not face up
    assert rejected(state, 0, alarm(0, 1)) == "not_alarm_rat"


def test_nothing_to_reveal(stage):
    assert rejected(stage(3, rest=2), 0, REVEAL) == "nothing_to_reveal"


def test_checks_run_shape_then_seat_then_phase_then_arguments(stage):
    finished = stage(3, finished=True, rest="discard")
    assert rejected(finished, 0, {"action": "pass"}) == "malformed_action"
    assert rejected(finished, 5, REVEAL) == "unknown_seat"
    state = stage(3, face_up=[11], current=1)
    assert rejected(state, 0, {"action": "end_turn"}) == "not_your_turn"
    assert rejected(state, 1, alarm(99, 99)) == "wrong_phase"


def test_every_code_is_documented_and_unknown_codes_are_refused():
    assert set(piratz.ERROR_CODES) == {
        "malformed_action",
        "unknown_action",
        "unknown_seat",
        "game_finished",
        "not_your_turn",
        "wrong_phase",
        "unknown_treasure",
        "card_not_face_up",
        "bury_required",
        "bury_not_allowed",
        "not_alarm_rat",
        "nothing_to_reveal",
    }
    with pytest.raises(ValueError, match="unknown IllegalAction code"):
        piratz.IllegalAction("oops", "no such code")


def test_illegal_action_survives_pickling():
    error = pickle.loads(pickle.dumps(piratz.IllegalAction("wrong_phase", "not now")))
    assert (error.code, error.message, str(error)) == ("wrong_phase", "not now", "not now")


def test_legal_actions_is_empty_for_unknown_seats_and_finished_games(stage):
    state = stage(3)
    assert piratz.legal_actions(state, 3) == []
    assert piratz.legal_actions(state, True) == []
    assert piratz.legal_actions(state, None) == []
    assert piratz.legal_actions(stage(3, finished=True, rest="discard"), 0) == []
