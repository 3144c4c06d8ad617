"""Self-play with the pure engines, for any game: bot tournaments of a game that offers
bots, and what each game's own self-play shares (``SimulationError``, the move limit, the
summary helpers). A game's own runs (``manage.py simulate --game <kind>``) live in its
package (``<game>/simulation.py``, ``GameSpec.simulate``).

No Django, database or clock here: ``manage.py simulate`` and ``manage.py tournament``
are the I/O shells around it (progress bar, timing, printing), and tests call these
functions directly.
"""

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import import_module
from itertools import combinations, permutations
from math import copysign, erfc, inf, sqrt
from statistics import fmean, stdev
from types import ModuleType
from typing import cast

from games.engine_protocol import BotRulesModule

# A random game is a little over a hundred moves; a game still running after this many
# means the engine never reaches its end (a bug), which must fail instead of hanging.
MAX_MOVES_PER_GAME = 100_000


class SimulationError(RuntimeError):
    """A simulated game did not end within ``MAX_MOVES_PER_GAME`` moves."""


def spread(values: list[int]) -> dict:
    """Mean (3 decimals), minimum and maximum of ``values``."""
    return {"mean": round(fmean(values), 3), "min": min(values), "max": max(values)}


def percent(part: int, whole: int) -> float:
    """``part`` of ``whole`` in percent, 2 decimals (0 for nothing of nothing)."""
    return round(100 * part / whole, 2) if whole else 0.0


# --- bot tournaments ------------------------------------------------------------------------


@dataclass(frozen=True)
class BotGameRecord:
    """One finished game between bots: the level in each seat, and each seat's result."""

    levels: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    moves: int


def seatings(levels: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The level arrangements a tournament cycles through, so that no seat favours a level.

    With at least as many levels as seats: every ordered choice of ``players`` distinct
    levels (so each pair meets in both orders). With fewer: each rotation of the levels
    repeated around the table (seat ``s`` of rotation ``r`` gets ``levels[(r + s) % n]``).
    """
    levels = tuple(levels)
    if len(levels) >= players:
        return list(permutations(levels, players))
    return [
        tuple(levels[(rotation + seat) % len(levels)] for seat in range(players))
        for rotation in range(len(levels))
    ]


def seat_memory(log: list[dict], seat: int, blind: bool) -> list[dict]:
    """The public log as ``seat`` may see it in an active game (rules P23).

    The pure twin of ``games.movelog.public_log`` for games played without the database
    (a test checks the two agree): in blind mode, entries older than the seat's own last
    move are reduced to their kind, with ``revealed`` null.
    """
    if not blind:
        return log
    own = [entry["number"] for entry in log if entry["seat"] == seat]
    first_full = max(own, default=1)
    return [
        entry
        if entry["number"] >= first_full
        else {**entry, "action": {"action": entry["action"]["action"]}, "revealed": None}
        for entry in log
    ]


def engine_of(game: str | ModuleType | None) -> ModuleType:
    """The engine a simulation plays: an engine module as given; a kind through
    ``games.catalogue`` (which needs Django's settings); None: the catalogue's first game.
    A worker process without Django passes the engine, or its module path (``engine:<path>``)."""
    if isinstance(game, ModuleType):
        return game
    if isinstance(game, str) and game.startswith("engine:"):
        return import_module(game.removeprefix("engine:"))
    # deferred: the catalogue reads Django's settings; a run given its engine needs none.
    from games import catalogue

    return catalogue.rules_for(catalogue.kinds()[0] if game is None else game)


def new_game(rules, players: int, *, seed: int, blind: bool = False):
    """A game of ``rules`` dealt from ``seed``, with the blind option where the game has it
    (``ValueError`` for blind in a game without it)."""
    if "blind" in rules.OPTIONS:
        return rules.new_game(players, seed=seed, blind=blind)
    if blind:
        raise ValueError(f"{rules.NAME} has no blind option")
    return rules.new_game(players, seed=seed)


def play_bot_game(
    levels: Sequence[str],
    *,
    seed: int,
    blind: bool = False,
    choose=None,
    game: str | ModuleType | None = None,
) -> BotGameRecord:
    """Play one game of ``game`` (a kind or an engine, see ``engine_of``) with the bot of
    ``levels[s]`` in seat ``s``; return its record.

    The deal comes from ``seed``; each seat's bot draws its chances from its own
    ``random.Random`` seeded with ``seed`` and the seat, so the same arguments give the same
    game. ``choose`` (default: the game's ``choose_bot_action``) is called as
    ``choose_bot_action`` is (the tournament command passes a timed wrapper). Raises
    ``SimulationError`` if the game does not end.
    """
    rules = engine_of(game)
    # Only games that offer bots are simulated bot against bot.
    choose = choose or cast(BotRulesModule, rules).choose_bot_action
    players = len(levels)
    state = new_game(rules, players, seed=seed, blind=blind)
    rngs = [random.Random(f"{seed}:{seat}") for seat in range(players)]
    log: list[dict] = []
    while not rules.is_finished(state):
        if len(log) >= MAX_MOVES_PER_GAME:
            raise SimulationError(f"a bot game (seed {seed}) did not end")
        seat = rules.current_seat(state)
        assert seat is not None  # an unfinished game has a seat to move
        memory = seat_memory(log, seat, blind)
        action = choose(rules.view(state, seat), levels[seat], rngs[seat], memory)
        after = rules.apply(state, seat, action)
        log.append(
            {
                "number": len(log) + 1,
                "seat": seat,
                "action": action,
                "revealed": rules.move_effects(state, after, seat, action)["revealed"],
                "automatic": False,
                "at": None,
            }
        )
        state = after
    result = rules.view(state, None)["result"]
    return BotGameRecord(
        levels=tuple(levels),
        scores=tuple(player["score"] for player in result["players"]),
        winners=tuple(result["winners"]),
        moves=len(log),
    )


Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal distribution


def _mean_ci(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval (normal approximation)."""
    mean = fmean(values)
    if len(values) < 2:
        return mean, float("inf")
    return mean, Z95 * stdev(values) / sqrt(len(values))


@dataclass
class TournamentStats:
    """Totals of a bot tournament; ``add`` each game, then read ``summary``.

    Per level, every seat it held is one sample: its share of the victory (1 for a sole
    winner, 1/k when k seats share it, 0 otherwise: ties are split) and its score. A
    pairwise comparison uses the games where both levels sat: per game, the first level's
    mean share minus the second's (and the same for scores).
    """

    levels: tuple[str, ...]
    shares: dict = field(init=False)
    scores: dict = field(init=False)
    pairs: dict = field(init=False)
    games: int = 0

    def __post_init__(self):
        self.shares = {level: [] for level in self.levels}
        self.scores = {level: [] for level in self.levels}
        self.pairs = {pair: ([], []) for pair in combinations(self.levels, 2)}

    def add(self, record: BotGameRecord) -> None:
        self.games += 1
        winners = record.winners
        share = {seat: 1 / len(winners) for seat in winners}
        by_level: dict[str, list[int]] = {}
        for seat, level in enumerate(record.levels):
            self.shares[level].append(share.get(seat, 0.0))
            self.scores[level].append(record.scores[seat])
            by_level.setdefault(level, []).append(seat)
        for (first, second), (share_diffs, score_diffs) in self.pairs.items():
            if first in by_level and second in by_level:
                a, b = by_level[first], by_level[second]
                share_diffs.append(
                    fmean(share.get(s, 0.0) for s in a) - fmean(share.get(s, 0.0) for s in b)
                )
                score_diffs.append(
                    fmean(record.scores[s] for s in a) - fmean(record.scores[s] for s in b)
                )

    def summary(self) -> dict:
        """Per level and per pair, as JSON-ready data. Raises ``ValueError`` with no games."""
        if not self.games:
            raise ValueError("no games were played")
        levels = []
        for level in self.levels:
            win, win_ci = _mean_ci(self.shares[level])
            score, score_ci = _mean_ci(self.scores[level])
            levels.append(
                {
                    "level": level,
                    "seats": len(self.shares[level]),
                    "win_rate": win,
                    "win_rate_ci": win_ci,
                    "mean_score": score,
                    "mean_score_ci": score_ci,
                }
            )
        pairs = []
        for (first, second), (share_diffs, score_diffs) in self.pairs.items():
            if not share_diffs:
                continue
            diff, ci = _mean_ci(share_diffs)
            score_diff, score_ci = _mean_ci(score_diffs)
            spread = ci / Z95
            z = diff / spread if spread else (0.0 if diff == 0 else copysign(inf, diff))
            better, worse = (first, second) if diff >= 0 else (second, first)
            pairs.append(
                {
                    "better": better,
                    "worse": worse,
                    "games": len(share_diffs),
                    "win_rate_difference": abs(diff),
                    "win_rate_difference_ci": ci,
                    "score_difference": score_diff if diff >= 0 else -score_diff,
                    "score_difference_ci": score_ci,
                    "z": abs(z),
                    # Two-sided p-value of "no difference" (normal approximation).
                    "p_value": erfc(abs(z) / sqrt(2)),
                    "significant": abs(diff) > ci,
                }
            )
        return {"games": self.games, "levels": levels, "pairs": pairs}


def check_tournament(
    levels: Sequence[str], games: int, players: int, game: str | ModuleType | None = None
) -> tuple[str, ...]:
    """The distinct ``levels`` in order; ``ValueError`` for an unknown level or a bad size."""
    rules = engine_of(game)
    known = tuple(getattr(rules, "BOT_LEVELS", ()))
    levels = tuple(dict.fromkeys(levels))
    unknown = [level for level in levels if level not in known]
    if unknown or len(levels) < 1:
        raise ValueError(
            f"unknown bot level {', '.join(unknown) or '(none)'}; levels: {', '.join(known)}"
        )
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be at least 1, not {games!r}")
    if type(players) is not int or players not in rules.PLAYER_COUNTS:
        counts = ", ".join(str(count) for count in rules.PLAYER_COUNTS)
        raise ValueError(f"players must be one of {counts} for {rules.NAME}, not {players!r}")
    return levels


def tournament_game(
    levels: Sequence[str],
    players: int,
    number: int,
    *,
    seed: int,
    blind: bool = False,
    choose=None,
    game: str | ModuleType | None = None,
) -> BotGameRecord:
    """Game ``number`` of a tournament (see ``tournament``): any game can be played alone,
    so a tournament can be split between processes and give the same records."""
    cycle = seatings(levels, players)
    return play_bot_game(
        cycle[number % len(cycle)],
        seed=seed + number // len(cycle),
        blind=blind,
        choose=choose,
        game=game,
    )


def tournament(
    levels: Sequence[str],
    games: int,
    players: int,
    *,
    seed: int,
    blind: bool = False,
    choose=None,
    on_game=None,
    game: str | ModuleType | None = None,
) -> TournamentStats:
    """Play ``games`` bot games and return the totals.

    Game ``i`` is seated with ``seatings(levels, players)[i % k]`` and dealt with seed
    ``seed + i // k``, so each deal is played in every seating: position and the luck of
    the deal cancel out between levels. ``on_game`` gets each ``BotGameRecord``. ``game``
    is the kind (or the engine, ``engine_of``) of a game with bots. Raises ``ValueError``
    for arguments out of range (an unknown level among them).
    """
    levels = check_tournament(levels, games, players, game)
    stats = TournamentStats(levels)
    for number in range(games):
        record = tournament_game(
            levels, players, number, seed=seed, blind=blind, choose=choose, game=game
        )
        stats.add(record)
        if on_game is not None:
            on_game(record)
    return stats
