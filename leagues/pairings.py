"""Who plays whom in a league: round robin pairings and balanced groups of 3-4 (pure)."""

import itertools
import random
from collections import Counter

Table = tuple[int, ...]  # the players (indices 0..n-1) of one game, in seat order
Round = list[Table]

# How many shuffled orders each round of a group schedule tries (the best one is kept).
GROUP_TRIES = 4


def round_robin(players: int) -> list[Round]:
    """Every pair of ``players`` once, in ``players - 1`` rounds (one more and a bye for an
    odd count), by the circle method: player 0 stays put, the others turn one place a
    round. Seat order alternates so each player begins about half of their games."""
    if players < 2:
        return []
    ring = list(range(players)) + ([None] if players % 2 else [])
    size = len(ring)
    rounds: list[Round] = []
    for number in range(size - 1):
        tables: Round = []
        for i in range(size // 2):
            a, b = ring[i], ring[size - 1 - i]
            if a is None or b is None:
                continue  # the bye
            tables.append((a, b) if (number + i) % 2 == 0 else (b, a))
        rounds.append(tables)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def group_sizes(players: int, size: int) -> list[int] | None:
    """``players`` split into groups of ``size`` (3 or 4) and, where it does not divide,
    of the other of 3 and 4 (as few as possible); None when no split exists (5 players)."""
    other = 7 - size
    for odd in range(players + 1):
        rest = players - odd * other
        if rest < 0:
            break
        if rest % size == 0:
            return [size] * (rest // size) + [other] * odd
    return None


def group_rounds(players: int, size: int) -> int:
    """How many rounds a group schedule has: enough for each player to meet every other
    once on average if no pair met twice (every round everybody plays one game)."""
    return max(1, -(-(players - 1) // (size - 1)))


# Balanced schedules for 6-8 players, found by exhaustive search (the greedy search finds
# none there: too few ways to split so few players). Rounds of groups; seats sorted.
SMALL_DESIGNS: dict[int, list[list[Table]]] = {
    6: [
        [(0, 3, 5), (1, 2, 4)],
        [(0, 3, 4), (1, 2, 5)],
        [(0, 2, 5), (1, 3, 4)],
        [(0, 1, 5), (2, 3, 4)],
        [(0, 1, 3), (2, 4, 5)],
    ],
    7: [
        [(0, 2, 6), (1, 3, 4, 5)],
        [(0, 2, 3, 5), (1, 4, 6)],
        [(0, 1, 3), (2, 4, 5, 6)],
        [(0, 1, 2, 4), (3, 5, 6)],
        [(0, 4, 5), (1, 2, 3, 6)],
        [(0, 1, 5, 6), (2, 3, 4)],
    ],
    8: [
        [(0, 1, 4, 7), (2, 3, 5, 6)],
        [(0, 1, 5, 6), (2, 3, 4, 7)],
        [(0, 3, 4, 5), (1, 2, 6, 7)],
        [(0, 1, 2, 3), (4, 5, 6, 7)],
        [(0, 2, 4, 6), (1, 3, 5, 7)],
        [(0, 2, 5, 7), (1, 3, 4, 6)],
    ],
}


# How many whole schedules ``groups`` builds at most, looking for a balanced one.
SCHEDULE_TRIES = 20


def groups(players: int, size: int) -> list[Round]:
    """Rounds of groups of 3-4 (``group_sizes``) in which every player meets every other
    about equally often: the first of up to ``SCHEDULE_TRIES`` schedules (``_schedule``,
    seeds 0, 1, ...) where every pair has met and each pair's count is within 1 of the
    mean, else the one with the smallest spread. Deterministic. Raises ValueError when
    ``players`` cannot be split into groups of 3-4."""
    if group_sizes(players, size) is None:
        raise ValueError(f"{players} players cannot sit in groups of 3 and 4")
    if players in SMALL_DESIGNS:
        return _seated([list(tables) for tables in SMALL_DESIGNS[players]])
    best: tuple[float, list[Round]] | None = None
    for seed in range(SCHEDULE_TRIES):
        schedule = _schedule(players, size, seed=seed)
        # Its shortest beginning that is balanced: the last rounds may only have chased
        # one pair that had not met.
        for length in range(group_rounds(players, size), len(schedule) + 1):
            rounds = schedule[:length]
            spread = _spread(players, rounds)
            if spread <= 1:
                return rounds
            if best is None or spread < best[0]:
                best = (spread, rounds)
    assert best is not None
    return best[1]


def _spread(players: int, rounds: list[Round]) -> float:
    """How far the meeting count of the pair furthest from the mean is from it."""
    met = meetings(rounds)
    counts = [met[pair] for pair in itertools.combinations(range(players), 2)]
    mean = sum(counts) / len(counts)
    return max(max(counts) - mean, mean - min(counts))


def _schedule(players: int, size: int, *, seed: int) -> list[Round]:
    """One schedule of rounds of groups (``group_sizes``), deterministic for ``seed``:
    rounds are added until every pair has met (at least ``group_rounds``, at most three
    times as many). Each round is the best of ``GROUP_TRIES`` greedy splits (a player joins
    the group whose members they have met least; then swaps while they help), scored by
    ``_group_cost``, so a pair meets again only when that cannot be helped."""
    sizes = group_sizes(players, size)
    assert sizes is not None  # groups() checked
    rng = random.Random(seed)
    met: Counter[tuple[int, int]] = Counter()
    rounds: list[Round] = []
    pairs = players * (players - 1) // 2
    while len(rounds) < group_rounds(players, size) or (
        len(met) < pairs and len(rounds) < 3 * group_rounds(players, size)
    ):
        best: tuple[int, list[list[int]]] | None = None
        for _try in range(GROUP_TRIES):
            order = list(range(players))
            rng.shuffle(order)
            split = _improved(_greedy_split(order, sizes, met), met)
            cost = sum(_group_cost(group, met) for group in split)
            if best is None or cost < best[0]:
                best = (cost, split)
        assert best is not None
        for group in best[1]:
            for pair in itertools.combinations(sorted(group), 2):
                met[pair] += 1
        rounds.append([tuple(sorted(group)) for group in best[1]])
    return _seated(rounds)


def _seated(rounds: list[Round]) -> list[Round]:
    """``rounds`` with each table's seat order chosen so that who begins (seat 0) is spread:
    the player who has begun least so far, then the others in that order too."""
    starts: Counter[int] = Counter()
    seated_rounds = []
    for tables in rounds:
        seated_tables: Round = []
        for table in tables:
            seated = tuple(sorted(table, key=lambda p: (starts[p], p)))
            starts[seated[0]] += 1
            seated_tables.append(seated)
        seated_rounds.append(seated_tables)
    return seated_rounds


def _group_cost(group: list[int], met: Counter) -> int:
    """What seating ``group`` together costs: nothing for pairs who have not met, more
    the more often a pair has met (tenfold a meeting), so repeats are spread thin."""
    return sum(10 ** met[pair] - 1 for pair in itertools.combinations(sorted(group), 2))


def _improved(split: list[list[int]], met: Counter) -> list[list[int]]:
    """``split`` after swapping players between groups while a swap lowers the cost."""
    improved = True
    while improved:
        improved = False
        for g, h in itertools.combinations(range(len(split)), 2):
            for i, j in itertools.product(range(len(split[g])), range(len(split[h]))):
                a, b = split[g], split[h]
                before = _group_cost(a, met) + _group_cost(b, met)
                a2 = [*a[:i], b[j], *a[i + 1 :]]
                b2 = [*b[:j], a[i], *b[j + 1 :]]
                if _group_cost(a2, met) + _group_cost(b2, met) < before:
                    split[g], split[h] = a2, b2
                    improved = True
    return split


def _greedy_split(order: list[int], sizes: list[int], met: Counter) -> list[list[int]]:
    """``order``'s players into groups of ``sizes``: each group is begun by the first player
    left and filled with those who have met its members least (``order`` breaks ties)."""
    left = list(order)
    split = []
    for size in sizes:
        group = [left.pop(0)]
        while len(group) < size:
            pick = min(
                left,
                key=lambda p: sum(met[(min(p, q), max(p, q))] for q in group),
            )
            left.remove(pick)
            group.append(pick)
        split.append(group)
    return split


def meetings(rounds: list[Round]) -> Counter[tuple[int, int]]:
    """How often each pair (low, high) sits at the same table in ``rounds``."""
    count: Counter[tuple[int, int]] = Counter()
    for tables in rounds:
        for table in tables:
            for pair in itertools.combinations(sorted(table), 2):
                count[pair] += 1
    return count
