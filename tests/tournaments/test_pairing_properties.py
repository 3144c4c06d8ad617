"""The pairing rules as properties (tournaments.pairing; docs/tournaments.md "Pairing
rules"): hypothesis plays whole Swiss tournaments and brackets with random results."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import pairing
from tournaments.pairing import SwissPlayer, swiss_round


def _has_perfect_pairing(ids, allowed, odd_bye_from=None) -> bool:
    """Brute force: can ``ids`` be split into allowed pairs (one bye from ``odd_bye_from``
    when odd)?"""
    ids = list(ids)
    if len(ids) % 2:
        return any(
            _has_perfect_pairing([i for i in ids if i != bye], allowed)
            for bye in (odd_bye_from if odd_bye_from is not None else ids)
        )
    if not ids:
        return True
    first, rest = ids[0], ids[1:]
    return any(
        allowed(first, other) and _has_perfect_pairing([i for i in rest if i != other], allowed)
        for other in rest
    )


def _play_swiss(count, rounds, outcomes, ratings):
    """A whole Swiss of ``count`` players with the given per-game outcomes (0, ½, 1 for the
    first); returns the rounds as (pairs, bye, players before the round)."""
    scores = dict.fromkeys(range(count), 0.0)
    met: dict[int, set[int]] = {i: set() for i in range(count)}
    byes: set[int] = set()
    outcome = itertools.cycle(outcomes or [1.0])
    played = []
    for _round in range(rounds):
        players = [
            SwissPlayer(
                id=i,
                score=scores[i],
                rating=ratings[i],
                had_bye=i in byes,
                opponents=frozenset(met[i]),
            )
            for i in range(count)
        ]
        chosen = swiss_round(players)
        played.append((chosen, players))
        for a, b in chosen.pairs:
            points = next(outcome)
            scores[a] += points
            scores[b] += 1 - points
            met[a].add(b)
            met[b].add(a)
        if chosen.bye is not None:
            scores[chosen.bye] += 1
            byes.add(chosen.bye)
    return played


swiss_fields = st.integers(min_value=2, max_value=11).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.integers(min_value=1, max_value=pairing.swiss_rounds_for(n, 15)),
        st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=1, max_size=20),
        st.lists(st.integers(min_value=0, max_value=3000), min_size=n, max_size=n),
    )
)


@settings(max_examples=150, deadline=None)
@given(swiss_fields)
def test_every_active_player_is_in_exactly_one_pairing_or_the_bye(field):
    count, rounds, outcomes, ratings = field
    for chosen, _players in _play_swiss(count, rounds, outcomes, ratings):
        seated = [p for pair in chosen.pairs for p in pair]
        if chosen.bye is not None:
            seated.append(chosen.bye)
        assert sorted(seated) == list(range(count))
        assert (chosen.bye is None) == (count % 2 == 0)
        assert all(a != b for a, b in chosen.pairs)


@settings(max_examples=150, deadline=None)
@given(swiss_fields)
def test_no_pair_meets_twice_while_another_pairing_avoids_it(field):
    count, rounds, outcomes, ratings = field
    for chosen, players in _play_swiss(count, rounds, outcomes, ratings):
        by_id = {p.id: p for p in players}
        repeats = [pair for pair in chosen.pairs if pair[1] in by_id[pair[0]].opponents]
        if repeats:
            # Only when no pairing of this round (any bye) avoids every repeat.
            assert not _has_perfect_pairing(
                range(count), lambda a, b, by_id=by_id: b not in by_id[a].opponents
            ), f"avoidable repeat {repeats}"


@settings(max_examples=150, deadline=None)
@given(swiss_fields)
def test_nobody_gets_a_second_bye_while_avoidable(field):
    count, rounds, outcomes, ratings = field
    for chosen, players in _play_swiss(count, rounds, outcomes, ratings):
        by_id = {p.id: p for p in players}
        if chosen.bye is None or not by_id[chosen.bye].had_bye:
            continue
        fresh = [p.id for p in players if not p.had_bye]
        # A second bye only when no fresh player could sit out of a repeat-free round.
        assert not fresh or not _has_perfect_pairing(
            range(count), lambda a, b, by_id=by_id: b not in by_id[a].opponents, odd_bye_from=fresh
        )


@settings(max_examples=150, deadline=None)
@given(swiss_fields)
def test_the_bye_goes_to_the_lowest_ranked_without_one_when_that_pairs(field):
    count, rounds, outcomes, ratings = field
    for chosen, players in _play_swiss(count, rounds, outcomes, ratings):
        if chosen.bye is None:
            continue
        by_id = {p.id: p for p in players}
        order = pairing.ranked(players)
        lowest_fresh = next((p for p in reversed(order) if not p.had_bye), None)
        others = [p.id for p in players if p.id != getattr(lowest_fresh, "id", None)]
        if lowest_fresh is not None and _has_perfect_pairing(
            others, lambda a, b, by_id=by_id: b not in by_id[a].opponents
        ):
            assert chosen.bye == lowest_fresh.id


@settings(max_examples=100, deadline=None)
@given(
    st.integers(min_value=2, max_value=10).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.sets(
                st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(
                    lambda pair: pair[0] != pair[1]
                ),
                max_size=n,
            ),
        )
    )
)
def test_blocked_people_are_not_paired_where_avoidable(field):
    count, blocks = field
    blocked = {i: {b for a, b in blocks if a == i} for i in range(count)}
    players = [
        SwissPlayer(id=i, score=0, rating=1500 - i, blocked=frozenset(blocked[i]))
        for i in range(count)
    ]

    def allowed(a, b):
        return b not in blocked[a] and a not in blocked[b]

    chosen = swiss_round(players)
    if any(not allowed(a, b) for a, b in chosen.pairs):
        assert not _has_perfect_pairing(range(count), allowed)


def test_round_one_pairs_by_rating_top_down():
    players = [SwissPlayer(id=i, score=0, rating=r) for i, r in enumerate([1400, 1900, 1600, 1700])]
    assert swiss_round(players).pairs == [(1, 3), (2, 0)]


def test_equal_scores_meet_first():
    players = [
        SwissPlayer(id=1, score=1, rating=1000, opponents=frozenset({4})),
        SwissPlayer(id=2, score=0, rating=2000, opponents=frozenset({3})),
        SwissPlayer(id=3, score=1, rating=1500, opponents=frozenset({2})),
        SwissPlayer(id=4, score=0, rating=1800, opponents=frozenset({1})),
    ]
    assert swiss_round(players).pairs == [(3, 1), (2, 4)]


# --- Elimination -----------------------------------------------------------------------------


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_the_bracket_order_is_standard_and_spreads_the_seeds(size):
    order = pairing.bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    # Round 1: each pair of places sums to size + 1 (1 v N, 2 v N-1, ...).
    assert all(a + b == size + 1 for a, b in zip(order[::2], order[1::2], strict=True))
    if size >= 2:
        half = size // 2
        assert (1 in order[:half]) != (2 in order[:half])


def test_the_bracket_of_eight():
    assert pairing.bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def _play_bracket(entrants, upsets):
    """Play a bracket out: ``upsets`` says per match whether the worse seed wins."""
    upset = itertools.cycle(upsets or [False])
    matches = pairing.first_round(entrants)
    meetings = []
    advancers = []
    for upper, lower in matches:
        if lower is None:
            advancers.append(upper)
            continue
        meetings.append((1, upper, lower))
        advancers.append(max(upper, lower) if next(upset) else min(upper, lower))
    number = 1
    while len(advancers) > 1:
        number += 1
        nxt = []
        for a, b in pairing.next_round(advancers):
            meetings.append((number, a, b))
            nxt.append(max(a, b) if next(upset) else min(a, b))
        advancers = nxt
    return meetings, advancers[0], number


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=2, max_value=70), st.lists(st.booleans(), max_size=30))
def test_a_bracket_plays_out_to_one_winner_seeds_one_and_two_only_in_the_final(entrants, upsets):
    meetings, winner, rounds = _play_bracket(entrants, upsets)
    assert rounds == pairing.rounds_of_bracket(entrants)
    assert 1 <= winner <= entrants
    assert len(meetings) == entrants - 1  # every game puts one out
    for number, a, b in meetings:
        if {a, b} == {1, 2}:
            assert number == rounds, "seeds 1 and 2 met before the final"
    # Without upsets the final is seed 1 v seed 2.
    straight, _winner, _rounds = _play_bracket(entrants, [False])
    assert {straight[-1][1], straight[-1][2]} == {1, 2}


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=2, max_value=130))
def test_byes_go_to_the_top_seeds(entrants):
    matches = pairing.first_round(entrants)
    byes = sorted(upper for upper, lower in matches if lower is None)
    assert byes == list(range(1, pairing.bracket_size(entrants) - entrants + 1))
    seated = sorted(s for match in matches for s in match if s is not None)
    assert seated == list(range(1, entrants + 1))


# --- Standings -------------------------------------------------------------------------------


def test_buchholz_breaks_ties_and_a_bye_scores_a_win():
    # 1 beat 2, 3 beat 4, 5 had the bye; then 1 beat 3, 2 drew 5, 4 had the bye.
    games = [
        (1, 2, 1.0, 0.0),
        (3, 4, 1.0, 0.0),
        (5, None, 1.0, 0.0),
        (1, 3, 1.0, 0.0),
        (2, 5, 0.5, 0.5),
        (4, None, 1.0, 0.0),
    ]
    table = pairing.swiss_standings(dict.fromkeys(range(1, 6), 1500), games)
    by_id = {row.id: row for row in table}
    assert by_id[1].score == 2 and by_id[5].score == 1.5 and by_id[4].score == 1
    assert by_id[3].buchholz == by_id[4].score + by_id[1].score  # 1 + 2
    assert by_id[5].buchholz == by_id[2].score  # the bye adds nothing
    assert [row.id for row in table][:2] == [1, 5]
    # 3 and 4 both on 1 point: 3's opponents scored more.
    assert [row.id for row in table].index(3) < [row.id for row in table].index(4)
