"""Scoring, rules P19-P22: items, rats, cards, majorities, tie-breaks, cubes and winners."""

import pytest

from games.kinds.piratz import rules as piratz

from .builders import CUBES_3P


def scored(stage, collected, players=3, cubes=CUBES_3P):
    return piratz.result(stage(players, collected=collected, rest="discard", cubes=cubes))


def test_p19_items_per_type_all_rats_and_cards_are_counted(stage):
    # 1 rat+ring, 2 rat+coin, 20 two rings, 32 ring+coin, 14 gem
    result = scored(stage, [[1, 2, 20, 32, 14], [], []])
    me = result["players"][0]
    assert me["items"] == {
        "rings": 4,
        "coins": 2,
        "pearls": 0,
        "gems": 1,
        "goblets": 0,
        "shells": 0,
    }
    assert me["rats"] == 2  # the coin rat counts for the rings ranking too
    assert me["cards"] == 5
    assert result["players"][1] == {
        "seat": 1,
        "items": dict.fromkeys(piratz.TREASURES, 0),
        "rats": 0,
        "cards": 0,
        "cubes": [],
        "score": 0,
    }


def test_p20_more_items_rank_first(stage):
    result = scored(stage, [[11], [20], [33]])  # rings: 1, 2, 1 (seat 2's ring+pearl)
    assert result["awards"]["rings"][0] == {"seat": 1, "value": 4}


def test_p20_tie_on_items_goes_to_more_rats_counting_every_rat(stage):
    # Both have 2 rings; seat 1's rat shows coins, not rings, and still counts.
    result = scored(stage, [[20, 12], [11, 33, 2], []])
    assert result["players"][1]["items"]["rings"] == 2
    assert result["awards"]["rings"] == [{"seat": 1, "value": 4}, {"seat": 0, "value": 1}]


def test_p20_then_fewer_cards_rank_first(stage):
    # Both 2 rings, no rats; seat 0 has 2 cards, seat 2 has 1.
    result = scored(stage, [[11, 34], [], [20]])
    assert result["awards"]["rings"] == [{"seat": 2, "value": 4}, {"seat": 0, "value": 1}]


def test_p20_a_full_tie_for_a_cube_means_nobody_gets_it_or_any_later_one(stage):
    # rings: seats 0 and 1 both 1 ring, 0 rats, 1 card: tied for the first cube.
    result = scored(stage, [[11], [33], []])
    assert result["awards"]["rings"] == []
    # coins: seat 2 clearly first, seats 0 and 1 tied for the second cube.
    result = scored(stage, [[12, 11], [37, 33], [21]])
    assert result["awards"]["coins"] == [{"seat": 2, "value": 3}]


def test_p20_a_tie_below_the_last_cube_does_not_matter(stage):
    # 4 players, coins: 3, 2, 1, 1 items; the tie is for third place with only two cubes.
    result = scored(stage, [[21, 39], [26], [12], [37]], players=4)
    assert result["awards"]["coins"] == [{"seat": 0, "value": 3}, {"seat": 1, "value": 2}]


def test_p20_players_with_zero_items_never_receive_a_cube(stage):
    result = scored(stage, [[11], [], []])
    assert result["awards"]["rings"] == [{"seat": 0, "value": 4}]
    assert result["awards"]["gems"] == []
    view = piratz.view(
        stage(3, collected=[[11], [], []], rest="discard", cubes=CUBES_3P, finished=True), 0
    )
    assert view["cubes"]["rings"] == [1]  # the unawarded cube stays on the score card


def test_p21_the_best_ranked_player_takes_the_highest_cube(stage):
    cubes = dict(CUBES_3P, rings=[3, 2], coins=[4, 1])
    result = scored(stage, [[11], [20], []], cubes=cubes)
    assert result["awards"]["rings"] == [{"seat": 1, "value": 3}, {"seat": 0, "value": 2}]


def test_p21_two_players_score_one_cube_per_type(stage):
    cubes = {"rings": [4], "coins": [4], "pearls": [3], "gems": [2], "goblets": [1], "shells": [1]}
    result = scored(stage, [[20], [11]], players=2, cubes=cubes)
    assert result["awards"]["rings"] == [{"seat": 0, "value": 4}]


def test_p22_score_is_the_sum_of_cube_values_and_the_top_score_wins(stage):
    result = scored(stage, [[11, 12], [20], [13]])
    # rings: 1 (4), 0 (1); coins: 0 (3); pearls: 2 (4)
    assert [p["score"] for p in result["players"]] == [4, 4, 4]
    assert [p["cubes"] for p in result["players"]] == [[1, 3], [4], [4]]
    assert result["winners"] == [0, 1, 2]
    state = stage(3, collected=[[11, 12], [20], [13]], rest="discard", cubes=CUBES_3P)
    assert piratz.scores(state) == [4, 4, 4]


def test_p22_a_single_top_score_is_the_only_winner(stage):
    result = scored(stage, [[20, 21], [11], []])
    assert result["winners"] == [0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_p22_result_lists_every_seat_and_every_type(stage, players):
    result = scored(stage, [[]] * players, players=players, cubes=None)
    assert [p["seat"] for p in result["players"]] == list(range(players))
    assert list(result["awards"]) == list(piratz.TREASURES)
    assert result["winners"] == list(range(players))  # everybody tied on 0
