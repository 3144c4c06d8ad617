"""A tournament's pairing rules, as pure functions: Swiss rounds, elimination brackets and
Swiss standings with Buchholz (docs/tournaments.md "Pairing rules").

No Django, no database, no clock, no randomness: callers pass what the rules read (scores,
ratings, who met whom, byes, blocks) and get pairs back, so the rules are tested as
properties (tests/tournaments/test_pairing_properties.py).

Swiss, each round:

1. Rank the active entrants by score, then rating (higher first), then id.
2. With an odd count, one sits out with a bye: the lowest-ranked who has had none.
3. Pair top down (Monrad): the best-ranked unpaired entrant meets the next best-ranked
   they may meet, so equal scores meet first and, within a score, near ratings.
4. What they may meet, most important first: nobody they blocked or who blocked them;
   nobody they met before; nobody gets a second bye. Each is given up only where no
   pairing of the round keeps it (the search backtracks over every pairing first).

Single elimination: seeds 1..N by rating; the bracket is the next power of two in the
standard order (1 v 16, 8 v 9, ...: seeds 1 and 2 meet only in the final), the missing
seeds' places are byes, which so fall to the top seeds.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

# A search for one round's pairing gives up after this many steps and tries the next
# looser rule (never reached below a few hundred entrants; it keeps a sweep bounded).
SEARCH_BUDGET = 200_000


@dataclass(frozen=True)
class SwissPlayer:
    """An active entrant as a Swiss round's pairing reads them."""

    id: int
    score: float
    rating: int
    had_bye: bool = False
    opponents: frozenset[int] = frozenset()
    blocked: frozenset[int] = frozenset()


@dataclass(frozen=True)
class SwissRound:
    """One round's pairing: ``pairs`` (higher-ranked first) and the ``bye``'s id or None."""

    pairs: list[tuple[int, int]]
    bye: int | None


def ranked(players: Iterable[SwissPlayer]) -> list[SwissPlayer]:
    """Best first: score, then rating (both higher first), then the lower id."""
    return sorted(players, key=lambda p: (-p.score, -p.rating, p.id))


def _may_meet(a: SwissPlayer, b: SwissPlayer, *, avoid_blocks: bool, avoid_repeats: bool) -> bool:
    if avoid_blocks and (b.id in a.blocked or a.id in b.blocked):
        return False
    return not (avoid_repeats and (b.id in a.opponents or a.id in b.opponents))


class _OutOfBudget(Exception):
    pass


def _pair_all(
    order: list[SwissPlayer], *, avoid_blocks: bool, avoid_repeats: bool
) -> list[tuple[int, int]] | None:
    """A pairing of every player of ``order`` (ranked) under the rules given, top down,
    the first found by backtracking; None when there is none. ``_OutOfBudget`` when the
    search takes more than ``SEARCH_BUDGET`` steps."""
    failed: set[frozenset[int]] = set()  # sets of players known to have no pairing
    steps = 0

    def search(rest: list[SwissPlayer]) -> list[tuple[int, int]] | None:
        nonlocal steps
        if not rest:
            return []
        key = frozenset(p.id for p in rest)
        if key in failed:
            return None
        top, others = rest[0], rest[1:]
        for index, candidate in enumerate(others):
            steps += 1
            if steps > SEARCH_BUDGET:
                raise _OutOfBudget
            if not _may_meet(
                top, candidate, avoid_blocks=avoid_blocks, avoid_repeats=avoid_repeats
            ):
                continue
            found = search(others[:index] + others[index + 1 :])
            if found is not None:
                return [(top.id, candidate.id), *found]
        failed.add(key)
        return None

    return search(order)


def swiss_round(players: Sequence[SwissPlayer]) -> SwissRound:
    """The next Swiss round of ``players`` (the active entrants), as the module says.

    The rules are kept in order of importance: no blocked pair, then no repeat pair, then
    no second bye; a rule is given up only when no pairing keeps it and those above it.
    Raises ``ValueError`` for fewer than two players."""
    if len(players) < 2:
        raise ValueError("a Swiss round needs two players at least")
    order = ranked(players)
    # Each combination of the three rules, most kept first (lexicographic, blocks first).
    for avoid_blocks in (True, False):
        for avoid_repeats in (True, False):
            for fresh_bye in (True, False):
                if len(order) % 2 == 0:
                    if not fresh_bye:
                        continue  # no bye this round: the third rule cannot matter
                    candidates: list[SwissPlayer | None] = [None]
                else:
                    # The lowest-ranked first; with the rule given up, those who had a
                    # bye come after those who had none.
                    lowest_first = list(reversed(order))
                    fresh = [p for p in lowest_first if not p.had_bye]
                    candidates = [
                        *fresh,
                        *([] if fresh_bye else [p for p in lowest_first if p.had_bye]),
                    ]
                for bye in candidates:
                    rest = [p for p in order if bye is None or p.id != bye.id]
                    try:
                        pairs = _pair_all(
                            rest, avoid_blocks=avoid_blocks, avoid_repeats=avoid_repeats
                        )
                    except _OutOfBudget:
                        pairs = None
                    if pairs is not None:
                        return SwissRound(pairs=pairs, bye=None if bye is None else bye.id)
    # Unreachable: with every rule given up, the ranked order pairs itself.
    raise AssertionError("no Swiss pairing found")


def swiss_rounds_for(entrants: int, asked: int) -> int:
    """How many rounds a Swiss of ``entrants`` plays when ``asked`` were set: never more
    than it takes for everyone to meet everyone (``entrants - 1``; one more when odd,
    as each round someone sits out)."""
    most = entrants if entrants % 2 else entrants - 1
    return max(1, min(asked, most))


# --- Single elimination ---------------------------------------------------------------------


def bracket_size(entrants: int) -> int:
    """The smallest power of two that seats ``entrants`` (at least 2)."""
    size = 2
    while size < entrants:
        size *= 2
    return size


def bracket_order(size: int) -> list[int]:
    """The seeds of a bracket of ``size`` (a power of two) in their places, top to bottom:
    neighbours ``2k`` and ``2k+1`` meet in round 1 (``[1, 8, 4, 5, 2, 7, 3, 6]``). Each
    seed ``s`` of a round meets ``2n + 1 - s`` in the round before, so the better seeds
    are spread apart: seeds 1 and 2 sit in different halves."""
    if size < 2 or size & (size - 1):
        raise ValueError("a bracket's size is a power of two, at least 2")
    order = [1, 2]
    while len(order) < size:
        total = len(order) * 2 + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def first_round(entrants: int) -> list[tuple[int, int | None]]:
    """Round 1 of an elimination of ``entrants`` seeds (1 best): one pair per two places
    of the bracket, in bracket order; ``(seed, None)`` is a bye (the other seed does not
    exist), which only top seeds get."""
    order = bracket_order(bracket_size(entrants))
    matches: list[tuple[int, int | None]] = []
    for upper, lower in zip(order[::2], order[1::2], strict=True):
        present = [s for s in (upper, lower) if s <= entrants]
        present.sort()
        matches.append((present[0], present[1] if len(present) > 1 else None))
    return matches


def rounds_of_bracket(entrants: int) -> int:
    """How many rounds an elimination of ``entrants`` plays (the final included)."""
    size, rounds = bracket_size(entrants), 0
    while size > 1:
        size //= 2
        rounds += 1
    return rounds


def next_round(advancers: Sequence[int | None]) -> list[tuple[int | None, int | None]]:
    """The next elimination round from the last one's ``advancers``, one per match in
    bracket order (None where nobody advanced: both left): places ``2k`` and ``2k+1``
    meet. A pair with one None is a walkover, with two nobody plays."""
    if len(advancers) % 2:
        raise ValueError("a round of a bracket has an even number of matches, or one")
    return [(advancers[i], advancers[i + 1]) for i in range(0, len(advancers), 2)]


# --- Swiss standings ------------------------------------------------------------------------


@dataclass
class Standing:
    """One entrant's line: ``score`` (win or bye 1, draw ½), ``buchholz`` (the sum of
    their opponents' scores; a bye adds nothing), and what they played."""

    id: int
    rating: int
    score: float = 0.0
    buchholz: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)
    rank: int = 0


def swiss_standings(
    ratings: dict[int, int], games: Iterable[tuple[int, int | None, float, float]]
) -> list[Standing]:
    """The standings of entrants ``ratings`` (id -> seed rating) after ``games``: each
    ``(first, second, first's points, second's points)`` of a decided pairing (1, ½ or 0;
    ``second`` None for a bye, which scores 1; a game without a result scores 0 both).
    Ranked by score, then Buchholz, then rating (higher first), then id; entrants equal
    in score and Buchholz share the rank."""
    rows = {uid: Standing(id=uid, rating=rating) for uid, rating in ratings.items()}
    for first, second, first_points, second_points in games:
        if second is None:
            rows[first].score += 1
            rows[first].byes += 1
            continue
        for me, them, mine in ((first, second, first_points), (second, first, second_points)):
            row = rows[me]
            row.score += mine
            row.opponents.append(them)
            if mine == 1:
                row.wins += 1
            elif mine == 0:
                row.losses += 1
            else:
                row.draws += 1
    for row in rows.values():
        row.buchholz = sum(rows[other].score for other in row.opponents)
    ordered = sorted(rows.values(), key=lambda r: (-r.score, -r.buchholz, -r.rating, r.id))
    for index, row in enumerate(ordered):
        before = ordered[index - 1] if index else None
        tied = before is not None and (before.score, before.buchholz) == (row.score, row.buchholz)
        row.rank = before.rank if tied and before is not None else index + 1
    return ordered
