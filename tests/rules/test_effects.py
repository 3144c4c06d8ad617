"""move_effects: what one applied move did, as the service logs it."""

from games.kinds.piratz import rules as piratz

from .builders import END_TURN, REVEAL


def effects(state, action):
    after = piratz.apply(state, piratz.current_seat(state), action)
    return piratz.move_effects(state, after, piratz.current_seat(state), action)


def test_a_reveal_reports_the_card_and_keeps_the_turn(stage):
    state = stage(3, draw=[21])
    assert effects(state, REVEAL) == {
        "revealed": piratz.card(21),
        "revealed_ids": 21,
        "buried": None,
        "new_turn": False,
    }


def test_a_pass_reports_the_buried_card_and_a_new_turn(stage):
    state = stage(3, face_up=[11, 12])
    pass_ = {"action": "pass", "treasure": "rings", "bury": 12}
    assert effects(state, pass_) == {
        "revealed": None,
        "revealed_ids": None,
        "buried": 12,
        "new_turn": True,
    }


def test_end_turn_starts_a_new_turn_even_for_the_last_spade(stage, play):
    state = play(stage(3, draw=[11], spades=[True, False, False]), REVEAL)
    assert effects(state, END_TURN) == {
        "revealed": None,
        "revealed_ids": None,
        "buried": None,
        "new_turn": True,
    }


def test_an_alarm_reports_its_burial(stage):
    state = stage(3, face_up=[1, 11, 2], phase="alarm")
    action = {"action": "resolve_alarm", "keep": 2, "bury": 1}
    assert effects(state, action) == {
        "revealed": None,
        "revealed_ids": None,
        "buried": 1,
        "new_turn": True,
    }


def test_the_log_keeps_the_id_and_shows_the_card():
    assert piratz.public_revealed(21) == piratz.card(21)
    assert piratz.public_revealed(None) is None
