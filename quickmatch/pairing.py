"""Which waiting seeks make a game together: pure (no database, no clock), property-tested.

The rule (docs/quickmatch.md "How seeks are paired"):

- Seeks can share a game when they are for the same game, the same number of players and
  the same rated choice, come from different people none of whom has blocked another,
  their clock ranges overlap, and each one's rating lies within every other's *window*.
- A seek's window is the range its player asked for (displayed rating points either side
  of their rating) plus ``widening_per_minute`` points for every whole minute it has
  waited, so a seek nobody fits at first reaches further and further.
- Closest ratings first: of all the tables that can be made, the one whose ratings lie
  closest together (the smallest spread, highest minus lowest) is made first; on a tie,
  the one whose longest-waiting seek has waited longest. Then the next, from the seeks
  left, until no table can be made.
- The game's clock is the middle of the hours per turn every seek accepts (rounded down).

A table is found from each seek upwards in rating order, taking each next seek that fits
every seek taken so far; a table that exists only by skipping a fitting seek is not
searched for (so with three or four players the result is a good table, not always the
best possible one; with two it is always the closest pair).
"""

from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Candidate:
    """A waiting seek as the pairing sees it. ``key`` names it (the seek's id)."""

    key: Hashable
    user: int
    kind: str
    players: int
    hours_min: int
    hours_max: int
    rated: bool
    rating: int
    rating_range: int
    posted_at: datetime


def window(seek: Candidate, now: datetime, widening_per_minute: int) -> int:
    """How far (displayed rating points, either side) ``seek`` reaches at ``now``."""
    minutes = max(0, int((now - seek.posted_at).total_seconds()) // 60)
    return seek.rating_range + widening_per_minute * minutes


def blocked_pair(first: int, second: int) -> frozenset[int]:
    """The form of a pair of people in the ``blocked`` set the functions below take."""
    return frozenset((first, second))


def compatible(
    a: Candidate,
    b: Candidate,
    now: datetime,
    *,
    widening_per_minute: int,
    blocked: frozenset[frozenset[int]] | set[frozenset[int]],
) -> bool:
    """Whether seeks ``a`` and ``b`` may sit at one table (the rule above, for two)."""
    return (
        a.user != b.user
        and a.kind == b.kind
        and a.players == b.players
        and a.rated == b.rated
        and max(a.hours_min, b.hours_min) <= min(a.hours_max, b.hours_max)
        and abs(a.rating - b.rating) <= window(a, now, widening_per_minute)
        and abs(a.rating - b.rating) <= window(b, now, widening_per_minute)
        and blocked_pair(a.user, b.user) not in blocked
    )


def turn_hours_for(table: Iterable[Candidate]) -> int:
    """The hours per turn of a table's game: the middle of the range all its seeks accept.

    Ranges that overlap pairwise share a common part (intervals on a line), which
    ``compatible`` guarantees for every table ``tables`` makes."""
    seeks = list(table)
    low = max(seek.hours_min for seek in seeks)
    high = min(seek.hours_max for seek in seeks)
    if low > high:
        raise ValueError("these seeks' clock ranges do not overlap")
    return (low + high) // 2


def tables(
    seeks: Iterable[Candidate],
    now: datetime,
    *,
    widening_per_minute: int,
    blocked: frozenset[frozenset[int]] | set[frozenset[int]] = frozenset(),
) -> list[tuple[Candidate, ...]]:
    """The tables to start from ``seeks``, in the order they are made (closest first).

    Each table holds exactly ``players`` seeks, every two of them ``compatible``; no seek
    is in two tables. Deterministic: the same seeks give the same tables."""
    buckets: dict[tuple, list[Candidate]] = defaultdict(list)
    for seek in seeks:
        if seek.players >= 2:
            buckets[(seek.kind, seek.players, seek.rated)].append(seek)
    made: list[tuple[Candidate, ...]] = []
    for key in sorted(buckets, key=repr):
        made.extend(
            _tables_of_bucket(
                buckets[key], now, widening_per_minute=widening_per_minute, blocked=blocked
            )
        )
    return made


def _tables_of_bucket(
    bucket: list[Candidate],
    now: datetime,
    *,
    widening_per_minute: int,
    blocked,
) -> list[tuple[Candidate, ...]]:
    """``tables`` for seeks of one game, player count and rated choice."""
    order = sorted(bucket, key=lambda seek: (seek.rating, seek.posted_at, repr(seek.key)))
    size = order[0].players
    windows = {seek.key: window(seek, now, widening_per_minute) for seek in order}
    taken: set = set()

    def fits(a: Candidate, b: Candidate) -> bool:
        return compatible(a, b, now, widening_per_minute=widening_per_minute, blocked=blocked)

    def table_from(index: int) -> tuple[Candidate, ...]:
        # The table whose lowest rating is order[index]'s: each next seek up the ratings
        # that fits all taken so far, until the table is full or nobody can reach. A
        # table that is not full is returned all the same: which seeks it holds says when
        # it must be looked for again.
        lowest = order[index]
        table = [lowest]
        for seek in order[index + 1 :]:
            if seek.rating - lowest.rating > windows[lowest.key]:
                break  # sorted by rating: every later seek is further from the lowest
            if seek.key in taken:
                continue
            if all(fits(member, seek) for member in table):
                table.append(seek)
                if len(table) == size:
                    break
        return tuple(table)

    # Each lowest seek's table, looked for again only when a seek in it has been taken: a
    # seek taken elsewhere that the search skipped or never reached changes nothing.
    cache = {index: table_from(index) for index in range(len(order))}
    made: list[tuple[Candidate, ...]] = []
    while True:
        best: tuple | None = None
        for index, table in cache.items():
            if order[index].key in taken:
                continue
            if any(seek.key in taken for seek in table):
                table = cache[index] = table_from(index)
            if len(table) < size:
                continue
            rank = (
                table[-1].rating - table[0].rating,
                min(seek.posted_at for seek in table),
                index,
            )
            if best is None or rank < best:
                best = rank
        if best is None:
            return made
        table = cache[best[2]]
        made.append(table)
        taken.update(seek.key for seek in table)
