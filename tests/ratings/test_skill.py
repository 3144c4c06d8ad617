"""The rating model (ratings.skill), without the database: places from a result, and the
update for 2-4 players with shared places."""

from ratings import skill

NEW = (skill.MU, skill.SIGMA)


def test_winners_share_first_place_and_the_others_follow_by_score():
    outcome = {
        "players": [{"seat": s, "score": v} for s, v in enumerate([7, 3, 7, 5])],
        "winners": [0, 2],
    }
    assert skill.ranks_of(outcome, [0, 1, 2, 3]) == {0: 1, 2: 1, 3: 3, 1: 4}


def test_a_resigned_seat_comes_last_whatever_it_scored():
    outcome = {
        "players": [{"seat": s, "score": v} for s, v in enumerate([9, 2, 4])],
        "winners": [2],
        "resigned": [0],
    }
    assert skill.ranks_of(outcome, [0, 1, 2]) == {2: 1, 1: 2, 0: 3}


def test_the_winner_of_a_game_won_by_rats_ranks_first_despite_fewer_points():
    # Rattenscharf R23: the rat loser loses whatever the scores.
    outcome = {"players": [{"seat": 0, "score": 30}, {"seat": 1, "score": 10}], "winners": [1]}
    assert skill.ranks_of(outcome, [0, 1]) == {1: 1, 0: 2}


def test_a_shared_win_moves_both_winners_alike_and_up():
    after = skill.rate([NEW, NEW, NEW, NEW], [1, 1, 3, 4])
    assert after[0] == after[1]
    assert after[0][0] > skill.MU > after[2][0] > after[3][0]
    assert all(sigma < skill.SIGMA for _, sigma in after)


def test_a_new_players_ordinal_is_zero_and_the_shown_rating_1500():
    from ratings.models import display_rating, ordinal_rating

    assert ordinal_rating(*NEW) == 0
    assert display_rating(*NEW) == 1500


def test_the_shown_rating_is_never_negative():
    # The ordinal goes below 0 after early losses ("Rating -4"); the shown scale does not.
    from ratings.models import display_rating, ordinal_rating

    assert ordinal_rating(22.0, 8.0) == -2 and display_rating(22.0, 8.0) == 1460
    assert display_rating(-100.0, 8.0) == 0


def test_third_of_four_gains_less_than_two_sharing_the_win():
    # What Plackett-Luce got wrong (ratings.skill's docstring): 3rd moved as the winners.
    after = skill.rate([NEW] * 4, [1, 1, 3, 4])
    assert after[2][0] < skill.MU < after[0][0]


def test_everybody_sharing_the_win_is_a_draw():
    after = skill.rate([NEW, NEW], [1, 1])
    assert after[0] == after[1] and after[0][0] == skill.MU
