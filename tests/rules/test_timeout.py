"""The automatic move for a player whose deadline passed, rule P24."""

import pytest

from games.kinds.piratz import rules as piratz

from .builders import pass_


def test_p24_pass_names_the_type_with_the_most_items_face_up(stage):
    # coins: 21 (2) + 32 (1) = 3 items; rings: 32 (1) + 11 (1) = 2 items in 2 cards.
    state = stage(3, face_up=[11, 21, 32, 13])
    assert piratz.timeout_action(state) == pass_("coins", 11)


def test_p24_item_ties_go_to_more_cards_taken(stage):
    # rings: 20 = 2 items in 1 card; pearls: 13 + 41 = 2 items in 2 cards.
    state = stage(3, face_up=[20, 13, 41])
    assert piratz.timeout_action(state)["treasure"] == "pearls"


def test_p24_full_ties_go_to_the_earlier_type_in_p1_order(stage):
    state = stage(3, face_up=[14, 12])  # one gem, one coin
    assert piratz.timeout_action(state) == pass_("coins", 14)


def test_p24_bury_the_remaining_card_with_most_items_then_lowest_id(stage):
    # goblets (6 items) beat pearls (5); left: 13 (1 item), 30 and 22 (2 items) -> bury 22.
    state = stage(3, face_up=[13, 24, 28, 31, 30, 22], phase="decide")
    assert piratz.timeout_action(state) == pass_("goblets", 22)


def test_p24_bury_is_null_when_nothing_is_left(stage):
    assert piratz.timeout_action(stage(3, face_up=[20])) == pass_("rings", None)
    assert piratz.timeout_action(stage(3)) == pass_("rings", None)


def test_p24_alarm_keeps_the_rat_with_more_items_and_buries_as_usual(stage):
    # Both rats show 1 item: keep the lowest id; bury 20 (2 items) over 12.
    state = stage(3, face_up=[8, 12, 20, 3], phase="alarm")
    assert piratz.timeout_action(state) == {"action": "resolve_alarm", "keep": 3, "bury": 20}


def test_p24_alarm_prefers_a_rat_showing_more_items(stage, monkeypatch):
    # The packaged deck's rats all show one item; P24 still prefers the richer one.
    from games.kinds.piratz.rules import timeout

    total = list(timeout._TOTAL)
    total[8] = 2
    monkeypatch.setattr(timeout, "_TOTAL", tuple(total))
    state = stage(3, face_up=[8, 12, 3], phase="alarm")
    assert piratz.timeout_action(state) == {"action": "resolve_alarm", "keep": 8, "bury": 3}


@pytest.mark.parametrize("seed", range(20))
def test_p24_the_timeout_action_is_always_legal(seed):
    state = piratz.new_game(2 + seed % 3, seed=seed)
    while not piratz.is_finished(state):
        action = piratz.timeout_action(state)
        assert action in piratz.legal_actions(state, state.current)
        state = piratz.apply(state, state.current, action)
        if not piratz.is_finished(state) and state.phase == "turn" and state.draw:
            state = piratz.apply(state, state.current, {"action": "reveal"})


def test_p24_no_timeout_action_once_finished(stage):
    with pytest.raises(piratz.IllegalAction) as caught:
        piratz.timeout_action(stage(3, finished=True, rest="discard"))
    assert caught.value.code == "game_finished"


# --- The standing order: the player's own ranking of types, P24 as the fallback ---------


def test_standing_order_names_the_first_listed_type_that_takes_a_card(stage):
    # P24 would name coins (3 items); the order skips shells (nothing shows them) and
    # names pearls, burying the richest card left as P24 does: 21 (2 coins) over 11, 32.
    state = stage(3, face_up=[11, 21, 32, 13], phase="decide")
    chosen = piratz.timeout_action(state, standing_order=["shells", "pearls", "rings"])
    assert chosen == pass_("pearls", 21)
    assert chosen in piratz.legal_actions(state, 0)


def test_standing_order_falls_back_to_p24_when_no_listed_type_takes_a_card(stage):
    state = stage(3, face_up=[11, 21, 32, 13])
    assert piratz.timeout_action(state, standing_order=["gems", "shells"]) == pass_("coins", 11)


def test_standing_order_passes_over_names_that_are_not_treasure_types(stage):
    state = stage(3, face_up=[20, 13])
    assert piratz.timeout_action(state, standing_order=["doubloons", "pearls"]) == pass_(
        "pearls", 20
    )


def test_standing_order_with_an_empty_row_is_p24(stage):
    assert piratz.timeout_action(stage(3), standing_order=["shells"]) == pass_("rings", None)


def test_standing_order_does_not_change_an_alarm(stage):
    state = stage(3, face_up=[8, 12, 20, 3], phase="alarm")
    assert piratz.timeout_action(state, standing_order=["coins"]) == {
        "action": "resolve_alarm",
        "keep": 3,
        "bury": 20,
    }


@pytest.mark.parametrize("seed", range(10))
def test_standing_order_action_is_always_legal(seed):
    order = list(reversed(piratz.TREASURES))[seed % 6 :]
    state = piratz.new_game(2 + seed % 3, seed=seed)
    while not piratz.is_finished(state):
        action = piratz.timeout_action(state, standing_order=order)
        assert action in piratz.legal_actions(state, state.current)
        state = piratz.apply(state, state.current, action)
        if not piratz.is_finished(state) and state.phase == "turn" and state.draw:
            state = piratz.apply(state, state.current, {"action": "reveal"})
