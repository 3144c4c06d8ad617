"""The printed rules' examples (Anna, Willi, Dirk and the rest) as fixed scenarios.

Seats: Anna 0, Willi 1, Dirk 2.
"""

from games.kinds.piratz import rules as piratz

from .builders import CUBES_3P, END_TURN, REVEAL, alarm, pass_

ANNA, WILLI, DIRK = 0, 1, 2


def test_anna_reveals_a_card_then_passes_taking_every_card_with_coins(stage):
    # Face up: 12 (coin), 14 (gem), 37 (coin + pearl); the top card is 21 (two coins).
    state = stage(3, face_up=[12, 14, 37], draw=[21])
    state = piratz.apply(state, ANNA, REVEAL)
    assert state.phase == "decide" and state.face_up[-1] == 21
    state = piratz.apply(state, ANNA, pass_("coins", 14))
    assert state.collected[ANNA] == (12, 37, 21)
    assert state.face_up == ()
    assert state.buried == ((ANNA, 14),)
    assert (state.current, state.phase) == (WILLI, "turn")


def test_passing_without_revealing_first(stage):
    state = stage(3, face_up=[12, 13], draw=[21])
    after = piratz.apply(state, ANNA, pass_("coins", 13))
    assert after.collected[ANNA] == (12,)
    assert after.draw == state.draw  # nothing was revealed
    assert after.current == WILLI


def test_willi_rat_alert_keeps_the_rat_with_rings(stage):
    # A coin rat (2) lies face up; Willi turns up the ring rat (1): rat alert.
    state = stage(3, face_up=[2, 13], draw=[1], spades=[False, True, True], current=WILLI)
    state = piratz.apply(state, WILLI, REVEAL)
    assert state.phase == "alarm"
    assert piratz.timeout_action(state)["keep"] == 1  # equal items: lowest id
    state = piratz.apply(state, WILLI, alarm(1, 13))
    assert state.collected[WILLI] == (1,)
    assert state.face_up == (2,)  # the other rat stays face up
    assert state.buried == ((WILLI, 13),)
    assert state.current == DIRK


def test_a_buried_rat_no_longer_counts_toward_an_alarm(stage):
    state = stage(3, face_up=[2, 13], draw=[1, 3], spades=[False, True, True], current=WILLI)
    state = piratz.apply(state, WILLI, REVEAL)
    state = piratz.apply(state, WILLI, alarm(1, 2))  # Willi buries the coin rat
    assert state.face_up == (13,)
    state = piratz.apply(state, DIRK, REVEAL)  # the pearl rat: the only one face up
    assert state.phase == "decide"
    assert state.face_up == (13, 3)


def test_the_last_spade_reveals_as_many_cards_as_they_like(stage, play):
    state = stage(3, draw=[11, 12, 14, 1], spades=[False, False, True], current=DIRK)
    for expected_row in ((11,), (11, 12), (11, 12, 14)):
        state = play(state, REVEAL)
        assert state.face_up == expected_row
        state = play(state, END_TURN)
        assert (state.current, state.phase) == (DIRK, "turn")  # back to Dirk
    state = play(state, REVEAL, pass_("gems", 1))
    assert state.collected[DIRK] == (14,)
    assert state.round == 2


def test_the_last_spade_stops_at_a_rat_alert(stage, play):
    state = stage(3, face_up=[2], draw=[11, 1], spades=[False, False, True], current=DIRK)
    state = play(state, REVEAL, END_TURN, REVEAL)
    assert state.phase == "alarm" and state.current == DIRK
    state = play(state, alarm(1, 11))
    assert state.round == 2 and state.face_up == (2,)


def test_the_next_round_starts_left_of_the_player_who_placed_the_last_spade(stage, play):
    state = stage(3, face_up=[11, 12, 13], draw=[14])
    state = play(state, pass_("rings", 12))  # Anna takes 11, buries 12
    state = play(state, pass_("coins", 13))  # Willi takes nothing, buries 13
    state = play(state, REVEAL, pass_("gems", None))  # Dirk takes 14: the last spade
    assert state.collected == ((11,), (), (14,))
    assert state.round == 2
    assert state.current == ANNA  # left of Dirk
    assert state.discard == (12, 13)


def test_next_round_starter_when_the_middle_seat_ends_the_round(stage, play):
    state = stage(4, spades=[False, True, False, False], current=WILLI)
    state = play(state, pass_("rings"))
    assert (state.round, state.current) == (2, DIRK)


def test_the_discard_pile_is_reshuffled_in_the_last_round(stage, play):
    state = stage(3, face_up=[], draw=[11], discard=[12, 13, 14], rest=DIRK)
    state = play(state, REVEAL)  # Anna turns up the last card of the draw pile
    assert state.last_round and piratz.view(state, 0)["draw_pile"] == 0
    state = play(state, pass_("rings"))
    state = play(state, REVEAL)  # Willi: the discard pile becomes the draw pile first
    view = piratz.view(state, WILLI)
    assert (view["draw_pile"], view["discard_pile"]) == (2, 0)
    assert state.face_up[0] in (12, 13, 14)
    state = play(state, END_TURN, REVEAL, END_TURN, REVEAL)
    assert state.draw == () and state.discard == ()
    assert piratz.legal_actions(state, state.current)[0]["action"] == "end_turn"
    while not piratz.is_finished(state):
        state = play(state, piratz.timeout_action(state))
    assert piratz.view(state, None)["status"] == "finished"


def test_dirk_counts_his_six_rings(stage):
    # 20 shows two rings; 32-35 show a ring and something else.
    state = stage(
        3,
        collected=[[11], [36], [20, 32, 33, 34, 35]],
        rest="discard",
        finished=True,
        cubes=CUBES_3P,
    )
    result = piratz.view(state, DIRK)["result"]
    assert result["players"][DIRK]["items"]["rings"] == 6
    assert result["awards"]["rings"][0] == {"seat": DIRK, "value": 4}


def test_ties_are_broken_by_more_rats_then_by_fewer_cards(stage):
    # Two rings each. Anna: a ring rat (1 rat, 2 cards); Willi 2 cards; Dirk 3 cards.
    state = stage(3, collected=[[1, 11], [20, 12], [33, 34, 13]], rest="discard", cubes=CUBES_3P)
    result = piratz.result(state)
    assert result["awards"]["rings"] == [
        {"seat": ANNA, "value": 4},
        {"seat": WILLI, "value": 1},
    ]


def test_a_full_tie_means_nobody_gets_the_remaining_cubes(stage):
    # Anna 3 rings; Willi and Dirk 1 ring, 0 rats, 1 card each: tied for the 1-cube.
    state = stage(3, collected=[[20, 11], [33], [34]], rest="discard", cubes=CUBES_3P)
    assert piratz.result(state)["awards"]["rings"] == [{"seat": ANNA, "value": 4}]
    # Tied at the top: neither cube of that type is given.
    state = stage(3, collected=[[33], [34], []], rest="discard", cubes=CUBES_3P)
    assert piratz.result(state)["awards"]["rings"] == []


def test_shared_victory(stage):
    # Anna wins rings (4); Willi wins pearls (4); Dirk has nothing.
    state = stage(3, collected=[[11], [13], []], rest="discard", cubes=CUBES_3P, finished=True)
    result = piratz.view(state, None)["result"]
    assert [p["score"] for p in result["players"]] == [4, 4, 0]
    assert result["winners"] == [ANNA, WILLI]


def test_a_fixed_seed_game_replays_identically():
    def replay():
        state = piratz.new_game(4, seed=2024)
        states = [state]
        while not piratz.is_finished(state):
            actions = piratz.legal_actions(state, state.current)
            reveal = actions[0]["action"] in ("reveal", "end_turn") and len(state.face_up) < 4
            state = piratz.apply(state, state.current, actions[0] if reveal else actions[-1])
            states.append(state)
        return states

    first = replay()
    assert first == replay()
    assert piratz.result(first[-1]) == piratz.result(replay()[-1])
