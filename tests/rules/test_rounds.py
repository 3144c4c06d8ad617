"""Rounds and the end of the game, rules P17-P18."""

from games.kinds.piratz import rules as piratz

from .builders import REVEAL, pass_


def test_p17_placing_the_last_spade_ends_the_round(stage):
    # Seat 0 buried 13, seat 2 has passed without burying; seat 1 holds the last spade.
    state = stage(3, face_up=[11, 2, 12], buried=[(0, 13)], spades=[False, True, False], current=1)
    after = piratz.apply(state, 1, pass_("rings", 12))
    assert after.round == 2
    assert after.discard == state.discard + (13, 12)  # buried cards, burial order
    assert after.buried == ()
    assert after.spades == (True, True, True)
    assert after.face_up == (2,)  # the row stays, the rat nobody took included
    assert after.collected[1] == (11,)


def test_p17_the_next_round_starts_clockwise_after_the_last_spade(stage):
    state = stage(4, spades=[True, False, False, False], current=0)
    after = piratz.apply(state, 0, pass_("rings"))
    assert (after.round, after.current, after.phase) == (2, 1, "turn")
    state = stage(4, spades=[False, False, False, True], current=3)
    assert piratz.apply(state, 3, pass_("rings")).current == 0


def test_p18_last_round_is_flagged_when_the_draw_pile_runs_out(stage):
    state = stage(3, draw=[11], rest="discard")
    assert not piratz.view(state, 0)["last_round"]
    after = piratz.apply(state, 0, REVEAL)
    assert after.draw == () and after.last_round
    assert piratz.view(after, 0)["last_round"] is True
    assert piratz.view(after, 0)["draw_pile"] == 0


def test_p18_the_game_ends_when_the_last_round_ends(stage):
    state = stage(3, draw=[11], rest="discard", spades=[True, False, False])
    state = piratz.apply(state, 0, REVEAL)
    assert not piratz.is_finished(state)
    after = piratz.apply(state, 0, pass_("rings"))
    assert piratz.is_finished(after)
    assert (after.current, after.phase) == (None, None)
    assert piratz.current_seat(after) is None and piratz.current_phase(after) is None
    assert piratz.round_number(after) == 1


def test_p18_the_last_round_still_lets_every_spade_holder_play(stage):
    state = stage(3, draw=[11], rest="discard")
    state = piratz.apply(piratz.apply(state, 0, REVEAL), 0, pass_("rings"))
    assert state.last_round and not state.finished and state.current == 1
    # Seat 1 reveals from the reshuffled discard pile (P10 in the last round).
    state = piratz.apply(state, 1, REVEAL)
    assert state.reshuffles == 1 and state.discard == ()


def test_p18_with_both_piles_empty_players_can_only_pass(stage):
    state = stage(3, face_up=[11], rest=2, last_round=True)
    actions = piratz.legal_actions(state, 0)
    assert {a["action"] for a in actions} == {"pass"}
    state = piratz.apply(state, 0, pass_("rings"))
    state = piratz.apply(state, 1, pass_("rings"))
    state = piratz.apply(state, 2, pass_("rings"))
    assert piratz.is_finished(state)


def test_p18_a_round_without_the_draw_pile_running_out_is_not_the_last(stage):
    state = stage(3, draw=[11, 12], spades=[True, False, False])
    after = piratz.apply(piratz.apply(state, 0, REVEAL), 0, pass_("rings"))
    assert not after.finished and after.round == 2 and not after.last_round
