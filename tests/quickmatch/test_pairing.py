"""The pure pairing of quick match (no database): who is seated with whom, and its
properties under hypothesis: no seek at two tables, every table compatible and full,
blocked people never together, the closest two-player pair first."""

import itertools
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from quickmatch.pairing import (
    Candidate,
    blocked_pair,
    compatible,
    tables,
    turn_hours_for,
    window,
)

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
WIDENING = 10


def seek(
    key,
    user,
    rating,
    *,
    kind="piratz",
    players=2,
    hours=(24, 72),
    rated=True,
    rating_range=100,
    waited_minutes=0,
) -> Candidate:
    return Candidate(
        key=key,
        user=user,
        kind=kind,
        players=players,
        hours_min=hours[0],
        hours_max=hours[1],
        rated=rated,
        rating=rating,
        rating_range=rating_range,
        posted_at=NOW - timedelta(minutes=waited_minutes),
    )


def keys(made) -> list[set]:
    return [{s.key for s in table} for table in made]


def test_the_closest_ratings_are_paired_first():
    seeks = [seek("a", 1, 1500), seek("b", 2, 1530), seek("c", 3, 1545), seek("d", 4, 1600)]
    assert keys(tables(seeks, NOW, widening_per_minute=WIDENING)) == [{"b", "c"}, {"a", "d"}]


def test_a_seek_out_of_either_window_waits():
    seeks = [seek("a", 1, 1500, rating_range=300), seek("b", 2, 1750, rating_range=100)]
    assert tables(seeks, NOW, widening_per_minute=WIDENING) == []


def test_the_window_widens_by_the_minute():
    early = seek("a", 1, 1500, rating_range=100, waited_minutes=14)
    assert window(early, NOW, WIDENING) == 100 + 14 * WIDENING
    late = seek("b", 2, 1750, rating_range=300, waited_minutes=15)
    assert tables([early, late], NOW, widening_per_minute=WIDENING) == []  # a reaches 240
    later = NOW + timedelta(minutes=1)  # a reaches 250: both now reach each other
    assert keys(tables([early, late], later, widening_per_minute=WIDENING)) == [{"a", "b"}]


def test_different_terms_never_meet():
    base = seek("a", 1, 1500)
    for other in [
        seek("b", 2, 1500, kind="rattenscharf"),
        seek("b", 2, 1500, players=3),
        seek("b", 2, 1500, rated=False),
        seek("b", 2, 1500, hours=(1, 12)),
        seek("b", 1, 1500),  # the same person
    ]:
        assert tables([base, other], NOW, widening_per_minute=WIDENING) == [], other


def test_blocked_people_are_never_paired_but_others_are():
    seeks = [seek("a", 1, 1500), seek("b", 2, 1500), seek("c", 3, 1550)]
    made = tables(seeks, NOW, widening_per_minute=WIDENING, blocked={blocked_pair(1, 2)})
    assert keys(made) == [{"a", "c"}]


def test_a_table_of_three_is_found_past_a_seat_that_does_not_fit():
    # b fits a but not c; the table of three skips b and takes c and d.
    seeks = [
        seek("a", 1, 1500, players=3),
        seek("b", 2, 1510, players=3, hours=(1, 10), rating_range=300),
        seek("c", 3, 1520, players=3, hours=(24, 48)),
        seek("d", 4, 1530, players=3),
    ]
    made = tables(seeks, NOW, widening_per_minute=WIDENING)
    assert keys(made) == [{"a", "c", "d"}]
    assert turn_hours_for(made[0]) == 36


def test_equal_spreads_go_to_the_longest_waiting():
    seeks = [
        seek("a", 1, 1500, rating_range=0),
        seek("b", 2, 1500, rating_range=0),
        seek("c", 3, 1500, rating_range=0, waited_minutes=5),
    ]
    made = tables(seeks, NOW, widening_per_minute=0)
    assert len(made) == 1 and "c" in keys(made)[0]


def test_turn_hours_is_the_middle_of_the_common_range():
    assert turn_hours_for([seek("a", 1, 0, hours=(12, 48)), seek("b", 2, 0, hours=(24, 96))]) == 36


candidates = st.builds(
    seek,
    key=st.just(None),
    user=st.integers(1, 8),
    rating=st.integers(900, 2100),
    kind=st.sampled_from(["piratz", "rattenscharf"]),
    players=st.integers(2, 4),
    hours=st.tuples(st.integers(1, 100), st.integers(0, 100)).map(
        lambda pair: (pair[0], pair[0] + pair[1])
    ),
    rated=st.booleans(),
    rating_range=st.integers(0, 400),
    waited_minutes=st.integers(0, 120),
)
seek_lists = st.lists(candidates, max_size=30).map(
    lambda found: [Candidate(**{**one.__dict__, "key": index}) for index, one in enumerate(found)]
)
blocks = st.sets(st.tuples(st.integers(1, 8), st.integers(1, 8)).map(lambda p: blocked_pair(*p)))


@settings(max_examples=300, deadline=None)
@given(seeks=seek_lists, blocked=blocks, widening=st.integers(0, 50))
def test_properties_of_every_pairing(seeks, blocked, widening):
    made = tables(seeks, NOW, widening_per_minute=widening, blocked=blocked)
    seated = [s.key for table in made for s in table]
    assert len(seated) == len(set(seated)), "no seek at two tables"
    for table in made:
        assert len(table) == table[0].players, "every table is full"
        assert len({s.user for s in table}) == len(table), "nobody twice at a table"
        for a, b in itertools.combinations(table, 2):
            assert compatible(a, b, NOW, widening_per_minute=widening, blocked=blocked)
            assert blocked_pair(a.user, b.user) not in blocked, "blocked people never meet"
        low, high = max(s.hours_min for s in table), min(s.hours_max for s in table)
        assert low <= turn_hours_for(table) <= high
    # The same seeks, in another order, give the same tables.
    again = tables(list(reversed(seeks)), NOW, widening_per_minute=widening, blocked=blocked)
    assert keys(again) == keys(made)


@settings(max_examples=300, deadline=None)
@given(seeks=seek_lists, blocked=blocks)
def test_the_first_two_player_table_is_the_closest_compatible_pair(seeks, blocked):
    pairs = [s for s in seeks if s.players == 2]
    made = tables(pairs, NOW, widening_per_minute=WIDENING, blocked=blocked)
    spreads = [
        abs(a.rating - b.rating)
        for a, b in itertools.combinations(pairs, 2)
        if compatible(a, b, NOW, widening_per_minute=WIDENING, blocked=blocked)
    ]
    if not spreads:
        assert made == []
        return
    assert min(table[-1].rating - table[0].rating for table in made) == min(spreads)
    # Greedy: no two seeks left unseated could still have made a table.
    seated = {s.key for table in made for s in table}
    left = [s for s in pairs if s.key not in seated]
    assert not any(
        compatible(a, b, NOW, widening_per_minute=WIDENING, blocked=blocked)
        for a, b in itertools.combinations(left, 2)
    )
