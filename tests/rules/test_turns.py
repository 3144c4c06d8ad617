"""A turn, rules P9-P16: reveal, decide, pass, bury, rat alarm and who moves next."""

import pytest

from games.kinds.piratz import rules as piratz

from .builders import END_TURN, REVEAL, alarm, pass_


def kinds(actions):
    return {action["action"] for action in actions}


def test_p9_turn_phase_allows_reveal_and_pass_only(stage):
    state = stage(3, face_up=[11], draw=[12])
    actions = piratz.legal_actions(state, 0)
    assert actions[0] == REVEAL
    assert kinds(actions) == {"reveal", "pass"}


def test_p10_reveal_turns_up_the_top_card_onto_the_end_of_the_row(stage):
    state = stage(3, face_up=[11], draw=[21, 22])
    after = piratz.apply(state, 0, REVEAL)
    assert after.face_up == (11, 21)
    assert after.draw[0] == 22 and len(after.draw) == len(state.draw) - 1
    assert piratz.revealed_card(state, after) == piratz.card(21)
    assert piratz.revealed_card(after, piratz.apply(after, 0, pass_("rings", 21))) is None


def test_p10_the_discard_pile_is_not_touched_while_the_draw_pile_has_cards(stage):
    state = stage(3, draw=[21], discard=[11, 12, 13], rest="draw")
    after = piratz.apply(state, 0, REVEAL)
    assert after.discard == state.discard
    assert after.reshuffles == 0


def test_p10_an_empty_draw_pile_is_refilled_by_shuffling_the_discard_pile(stage):
    state = stage(3, face_up=[11], discard=[12, 13, 14, 15], rest=0)
    assert state.draw == () and state.last_round
    assert piratz.legal_actions(state, 0)[0] == REVEAL
    after = piratz.apply(state, 0, REVEAL)
    assert after.discard == ()
    assert after.reshuffles == 1
    assert sorted(after.draw + after.face_up[1:]) == [12, 13, 14, 15]
    # The order comes from the key: the same state always reshuffles the same way.
    assert piratz.apply(state, 0, REVEAL) == after


def test_p10_reveal_is_illegal_when_both_piles_are_empty(stage):
    state = stage(3, face_up=[11], rest=1)
    assert kinds(piratz.legal_actions(state, 0)) == {"pass"}
    with pytest.raises(piratz.IllegalAction) as caught:
        piratz.apply(state, 0, REVEAL)
    assert caught.value.code == "nothing_to_reveal"


def test_p11_second_rat_forces_alarm(stage):
    state = stage(3, face_up=[1, 11], draw=[2])
    after = piratz.apply(state, 0, REVEAL)
    assert after.phase == "alarm"
    assert kinds(piratz.legal_actions(after, 0)) == {"resolve_alarm"}


def test_p11_a_first_rat_or_no_rat_leads_to_decide(stage):
    state = stage(3, face_up=[11], draw=[1, 2])
    after = piratz.apply(state, 0, REVEAL)
    assert after.phase == "decide"
    actions = piratz.legal_actions(after, 0)
    assert actions[0] == END_TURN
    assert kinds(actions) == {"end_turn", "pass"}


def test_p11_end_turn_hands_the_turn_to_the_next_seat_in_phase_turn(stage):
    state = stage(3, draw=[11])
    after = piratz.apply(piratz.apply(state, 0, REVEAL), 0, END_TURN)
    assert (after.current, after.phase) == (1, "turn")


def test_p11_buried_rats_never_count_toward_an_alarm(stage):
    state = stage(3, face_up=[11], buried=[(2, 1)], draw=[2], current=0)
    after = piratz.apply(state, 0, REVEAL)
    assert after.phase == "decide"


def test_p11_at_most_one_rat_is_face_up_outside_an_alarm(play):
    state = piratz.new_game(4, seed=11)
    for _ in range(300):
        if piratz.is_finished(state):
            break
        rats = sum(piratz.card(c)["rat"] for c in state.face_up)
        assert rats == 2 if state.phase == "alarm" else rats <= 1
        actions = piratz.legal_actions(state, state.current)
        state = play(state, actions[0] if actions[0]["action"] == "reveal" else actions[-1])


def test_p12_pass_takes_every_face_up_card_showing_the_type_in_row_order(stage):
    # 32 rings+coins, 12 coins, 11 rings, 21 two coins, 13 pearls
    state = stage(3, face_up=[32, 12, 11, 21, 13])
    after = piratz.apply(state, 0, pass_("coins", 13))
    assert after.collected[0] == (32, 12, 21)
    assert after.face_up == (11,)
    assert after.spades == (False, True, True)


def test_p12_passing_adds_to_the_collection_in_the_order_taken(stage):
    state = stage(3, face_up=[12, 13], collected=[[14, 15], [], []])
    after = piratz.apply(state, 0, pass_("coins", 13))
    assert after.collected[0] == (14, 15, 12)
    view = piratz.view(after, 1)
    assert [c["id"] for c in view["collected"][0]["cards"]] == [14, 15, 12]


def test_p12_naming_a_type_no_card_shows_is_legal_and_takes_nothing(stage):
    state = stage(3, face_up=[11, 12])
    assert pass_("gems", 12) in piratz.legal_actions(state, 0)
    after = piratz.apply(state, 0, pass_("gems", 12))
    assert after.collected[0] == ()
    assert after.face_up == (11,)


def test_p12_pass_is_legal_in_decide_after_a_reveal(stage):
    state = stage(3, draw=[11])
    after = piratz.apply(piratz.apply(state, 0, REVEAL), 0, pass_("rings"))
    assert after.collected[0] == (11,)
    assert after.current == 1


def test_p13_bury_removes_the_card_from_the_row_under_the_players_spade(stage):
    state = stage(3, face_up=[11, 12, 13])
    after = piratz.apply(state, 0, pass_("rings", 13))
    assert after.face_up == (12,)
    assert after.buried == ((0, 13),)
    assert piratz.view(after, None)["buried"] == [{"seat": 0, "card": piratz.card(13)}]


def test_p13_nobody_can_take_a_buried_card(stage):
    state = stage(3, face_up=[11, 12], buried=[(2, 20)], current=0)
    after = piratz.apply(state, 0, pass_("rings", 12))
    assert after.collected[0] == (11,)
    assert (2, 20) in after.buried


def test_p13_the_spade_is_placed_without_a_card_when_the_row_is_empty(stage):
    state = stage(3)
    assert piratz.legal_actions(state, 0)[1:] == [pass_(t) for t in piratz.TREASURES]
    after = piratz.apply(state, 0, pass_("shells"))
    assert after.buried == () and after.spades[0] is False


def test_p13_bury_options_are_the_row_left_after_taking(stage):
    state = stage(3, face_up=[11, 32, 13])
    rings = [a["bury"] for a in piratz.legal_actions(state, 0) if a.get("treasure") == "rings"]
    assert rings == [13]
    pearls = [a["bury"] for a in piratz.legal_actions(state, 0) if a.get("treasure") == "pearls"]
    assert pearls == [11, 32]
    took_all = stage(3, face_up=[11, 20])
    rings = [a["bury"] for a in piratz.legal_actions(took_all, 0) if a.get("treasure") == "rings"]
    assert rings == [None]


def test_p14_alarm_keeps_one_rat_and_the_other_stays_face_up(stage):
    state = stage(3, face_up=[1, 12, 2], phase="alarm")
    after = piratz.apply(state, 0, alarm(1, 12))
    assert after.collected[0] == (1,)  # a rat alert gives no other cards
    assert after.face_up == (2,)
    assert after.buried == ((0, 12),)
    assert after.current == 1 and after.phase == "turn"


def test_p14_the_other_rat_can_be_buried(stage):
    state = stage(3, face_up=[1, 12, 2], phase="alarm")
    after = piratz.apply(state, 0, alarm(2, 1))
    assert after.collected[0] == (2,)
    assert after.face_up == (12,)


def test_p14_legal_actions_are_each_rat_times_each_bury(stage):
    state = stage(3, face_up=[1, 12, 2], phase="alarm")
    assert piratz.legal_actions(state, 0) == [
        alarm(1, 12),
        alarm(1, 2),
        alarm(2, 1),
        alarm(2, 12),
    ]


def test_p15_a_player_without_a_spade_is_skipped(stage):
    state = stage(4, draw=[11], spades=[True, False, True, True])
    after = piratz.apply(piratz.apply(state, 0, REVEAL), 0, END_TURN)
    assert after.current == 2


def test_p16_the_next_player_is_the_next_seat_clockwise_holding_a_spade(stage):
    state = stage(4, draw=[11], spades=[False, True, False, True], current=3)
    after = piratz.apply(state, 3, pass_("coins", None))  # row empty: no bury
    assert after.current == 1
    wraps = stage(4, draw=[11], spades=[True, True, False, True], current=3)
    assert piratz.apply(piratz.apply(wraps, 3, REVEAL), 3, END_TURN).current == 0


def test_p16_the_last_spade_holder_gets_the_turn_back(stage):
    state = stage(3, draw=[11, 12, 13], spades=[False, True, False], current=1)
    state = piratz.apply(piratz.apply(state, 1, REVEAL), 1, END_TURN)
    assert (state.current, state.phase) == (1, "turn")
    state = piratz.apply(piratz.apply(state, 1, REVEAL), 1, END_TURN)
    assert state.face_up == (11, 12) and state.current == 1
