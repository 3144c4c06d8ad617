"""Self-play with the pure engines: random Piratz games and Rattenscharf games by a policy
for balancing, bot tournaments of any game that offers bots.

No Django, database or clock here: ``manage.py simulate`` and ``manage.py tournament``
are the I/O shells around it (progress bar, timing, printing), and tests call these
functions directly.
"""

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations
from math import copysign, erfc, inf, sqrt
from statistics import fmean, quantiles, stdev
from typing import cast

from games.rules import BotRulesModule, get_rules, piratz, rattenscharf

# The random player is the ``random`` bot level: one policy for simulate, the benches,
# the playout tests and the bots.
from games.rules.piratz.bots import random_action as choose_action

# A random game is a little over a hundred moves; a game still running after this many
# means the engine never reaches its end (a bug), which must fail instead of hanging.
MAX_MOVES_PER_GAME = 100_000


class SimulationError(RuntimeError):
    """A simulated game did not end within ``MAX_MOVES_PER_GAME`` moves."""


@dataclass(frozen=True)
class GameRecord:
    """What one finished random game looked like."""

    moves: int
    rounds: int
    rat_alerts: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]


def play_random_game(
    players: int, *, seed: int | None, blind: bool = False, reveal_bias: float = 0.7
) -> GameRecord:
    """Play one game to its end with ``choose_action`` for every seat.

    An int ``seed`` fixes both the deal and every choice, so the same arguments give the
    same game. Raises ``SimulationError`` if the game does not end.
    """
    rng = random.Random(seed)
    state = piratz.new_game(players, seed=seed, blind=blind)
    moves = rat_alerts = 0
    while not piratz.is_finished(state):
        if moves >= MAX_MOVES_PER_GAME:
            raise SimulationError(
                f"a {players}-player game (seed {seed}) did not end in {MAX_MOVES_PER_GAME} moves"
            )
        seat = piratz.current_seat(state)
        action = choose_action(piratz.legal_actions(state, seat), rng, reveal_bias)
        state = piratz.apply(state, seat, action)
        moves += 1
        # P11: a reveal that puts a second rat in the row is a rat alert.
        if action["action"] == "reveal" and piratz.current_phase(state) == "alarm":
            rat_alerts += 1
    result = piratz.view(state, None)["result"]
    return GameRecord(
        moves=moves,
        rounds=piratz.round_number(state),
        rat_alerts=rat_alerts,
        scores=tuple(player["score"] for player in result["players"]),
        winners=tuple(result["winners"]),
    )


def _spread(values: list[int]) -> dict:
    return {"mean": round(fmean(values), 3), "min": min(values), "max": max(values)}


def _percent(part: int, whole: int) -> float:
    return round(100 * part / whole, 2) if whole else 0.0


@dataclass
class SimulationStats:
    """Running totals over finished games of one player count; ``add`` each game."""

    players: int
    moves: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    rat_alerts: list[int] = field(default_factory=list)
    wins: list[int] = field(init=False)
    score_totals: list[int] = field(init=False)
    shared_victories: int = 0

    def __post_init__(self):
        self.wins = [0] * self.players
        self.score_totals = [0] * self.players

    @property
    def games(self) -> int:
        return len(self.moves)

    def add(self, record: GameRecord) -> None:
        self.moves.append(record.moves)
        self.rounds.append(record.rounds)
        self.rat_alerts.append(record.rat_alerts)
        # A shared victory (P22) is a win for each winner, so wins can add up to more
        # than the number of games.
        for seat in record.winners:
            self.wins[seat] += 1
        if len(record.winners) > 1:
            self.shared_victories += 1
        for seat, score in enumerate(record.scores):
            self.score_totals[seat] += score

    def summary(self) -> dict:
        """The statistics as JSON-ready data (what ``simulate --json`` prints).

        ``wins_by_seat`` counts a shared victory for every winner, so its percentages
        may add up to more than 100. Raises ``ValueError`` before any game was added.
        """
        games = self.games
        if not games:
            raise ValueError("no games were played")
        return {
            "games": games,
            "players": self.players,
            "moves_per_game": _spread(self.moves),
            "rounds_per_game": _spread(self.rounds),
            "rat_alerts_per_game": _spread(self.rat_alerts),
            "wins_by_seat": [
                {"seat": seat, "wins": wins, "percent": _percent(wins, games)}
                for seat, wins in enumerate(self.wins)
            ],
            "shared_victories": {
                "games": self.shared_victories,
                "percent": _percent(self.shared_victories, games),
            },
            "average_score": round(sum(self.score_totals) / (games * self.players), 3),
            "average_score_by_seat": [round(total / games, 3) for total in self.score_totals],
        }


def simulate(
    games: int,
    players: int,
    *,
    seed: int,
    blind: bool = False,
    reveal_bias: float = 0.7,
    on_game=None,
) -> SimulationStats:
    """Play ``games`` random games (game ``i`` with seed ``seed + i``) and return the totals.

    ``on_game`` (optional) is called with each ``GameRecord`` as it finishes, e.g. to
    move a progress bar. Raises ``ValueError`` for arguments out of range and
    ``SimulationError`` if a game does not end.
    """
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be at least 1, not {games!r}")
    if type(players) is not int or not 2 <= players <= 4:
        raise ValueError(f"players must be 2, 3 or 4, not {players!r}")
    if not 0 <= reveal_bias <= 1:
        raise ValueError(f"reveal_bias must be between 0 and 1, not {reveal_bias!r}")
    stats = SimulationStats(players)
    for number in range(games):
        record = play_random_game(players, seed=seed + number, blind=blind, reveal_bias=reveal_bias)
        stats.add(record)
        if on_game is not None:
            on_game(record)
    return stats


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
    game: str = "piratz",
) -> BotGameRecord:
    """Play one game of ``game`` with the bot of ``levels[s]`` in seat ``s``; return its record.

    The deal comes from ``seed``; each seat's bot draws its chances from its own
    ``random.Random`` seeded with ``seed`` and the seat, so the same arguments give the same
    game. ``choose`` (default: the game's ``choose_bot_action``) is called as
    ``choose_bot_action`` is (the tournament command passes a timed wrapper). Raises
    ``SimulationError`` if the game does not end.
    """
    rules = get_rules(game)
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
    levels: Sequence[str], games: int, players: int, game: str = "piratz"
) -> tuple[str, ...]:
    """The distinct ``levels`` in order; ``ValueError`` for an unknown level or a bad size."""
    rules = get_rules(game)
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
    game: str = "piratz",
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
    game: str = "piratz",
) -> TournamentStats:
    """Play ``games`` bot games and return the totals.

    Game ``i`` is seated with ``seatings(levels, players)[i % k]`` and dealt with seed
    ``seed + i // k``, so each deal is played in every seating: position and the luck of
    the deal cancel out between levels. ``on_game`` gets each ``BotGameRecord``. ``game``
    is the registry name of a game with bots. Raises ``ValueError`` for arguments out of
    range (an unknown level among them).
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


# --- Rattenscharf: the numbers that judge a strip list ----------------------------------------

# How a seat chooses in ``simulate_rattenscharf``: a uniformly random legal action, R35's
# stand-in (``timeout_action``), or a bot level (``rattenscharf.BOT_LEVELS``; its
# ``random`` is the same uniform choice as ``random``).
RATTENSCHARF_POLICIES = ("random", "timeout", *rattenscharf.BOT_LEVELS[1:])


@dataclass(frozen=True)
class RattenscharfRecord:
    """What one finished Rattenscharf game looked like (R23-R26, R32)."""

    policies: tuple[str, ...]
    reason: str  # "complete" or "rats"
    rat_loser: int | None
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    turns: int
    moves: int
    extent: int  # the largest |x| or |y| of any occupied cell (R6: the edge is 15)


def rattenscharf_action(state, policy: str, rng: random.Random) -> dict:
    """The action ``policy`` plays for the seat to move in ``state`` (see
    ``RATTENSCHARF_POLICIES``); ``ValueError`` for an unknown policy."""
    if policy == "timeout":
        return rattenscharf.timeout_action(state)
    if policy == "random":
        return rng.choice(rattenscharf.legal_actions(state, rattenscharf.current_seat(state)))
    if policy not in RATTENSCHARF_POLICIES:
        raise ValueError(f"unknown policy {policy!r}; policies: {', '.join(RATTENSCHARF_POLICIES)}")
    view = rattenscharf.view(state, rattenscharf.current_seat(state))
    return rattenscharf.choose_bot_action(view, policy, rng)


def play_rattenscharf_game(policies: Sequence[str], *, seed: int) -> RattenscharfRecord:
    """Play one Rattenscharf game with ``policies[s]`` choosing for seat ``s``.

    ``seed`` deals the pile; each seat draws its chances from its own ``random.Random``
    seeded with ``seed`` and the seat, so the same arguments give the same game. Raises
    ``SimulationError`` if the game does not end.
    """
    state = rattenscharf.new_game(2, seed=seed)
    rngs = [random.Random(f"{seed}:{seat}") for seat in range(2)]
    moves = 0
    while not rattenscharf.is_finished(state):
        if moves >= MAX_MOVES_PER_GAME:
            raise SimulationError(f"a Rattenscharf game (seed {seed}) did not end")
        seat = rattenscharf.current_seat(state)
        action = rattenscharf_action(state, policies[seat], rngs[seat])
        state = rattenscharf.apply(state, seat, action)
        moves += 1
    result = rattenscharf.result(state)
    return RattenscharfRecord(
        policies=tuple(policies),
        reason=result["reason"],
        rat_loser=result["rat_loser"],
        scores=tuple(player["score"] for player in result["players"]),
        winners=tuple(result["winners"]),
        turns=rattenscharf.round_number(state),
        moves=moves,
        extent=max(max(abs(x), abs(y)) for x, y in state.board.grid),
    )


def _distribution(values: list[int]) -> dict | None:
    """Mean, standard deviation, minimum, quartiles and maximum; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    if len(ordered) > 1:
        q1, median, q3 = quantiles(ordered, n=4, method="inclusive")
    else:
        q1 = median = q3 = ordered[0]
    return {
        "mean": round(fmean(ordered), 3),
        "sd": round(stdev(ordered), 3) if len(ordered) > 1 else 0.0,
        "min": ordered[0],
        "q1": q1,
        "median": median,
        "q3": q3,
        "max": ordered[-1],
    }


@dataclass
class RattenscharfStats:
    """Running totals over finished Rattenscharf games; ``add`` each game."""

    policies: tuple[str, ...]
    records: list[RattenscharfRecord] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.records)

    def add(self, record: RattenscharfRecord) -> None:
        self.records.append(record)

    def summary(self) -> dict:
        """The statistics as JSON-ready data (what ``simulate --game rattenscharf --json``
        prints). Scores are those of completed games only: a game lost to rats has no final
        scoring (R23). A tie is a win for both seats (R26), so wins may add up to more than
        the games. Raises ``ValueError`` before any game was added.
        """
        games = self.games
        if not games:
            raise ValueError("no games were played")
        records = self.records
        complete = [r for r in records if r.reason == "complete"]
        ties = sum(1 for r in complete if len(r.winners) > 1)
        seats = range(2)
        return {
            "game": "rattenscharf",
            "games": games,
            "policies": list(self.policies),
            "complete": {"games": len(complete), "percent": _percent(len(complete), games)},
            "rat_losses": {
                "games": games - len(complete),
                "percent": _percent(games - len(complete), games),
            },
            "rat_losses_by_seat": [
                {
                    "seat": seat,
                    "colour": rattenscharf.COLOURS[seat],
                    "games": (lost := sum(1 for r in records if r.rat_loser == seat)),
                    "percent": _percent(lost, games),
                }
                for seat in seats
            ],
            "wins_by_seat": [
                {
                    "seat": seat,
                    "colour": rattenscharf.COLOURS[seat],
                    "wins": (wins := sum(1 for r in records if seat in r.winners)),
                    "percent": _percent(wins, games),
                    "by_rats": sum(1 for r in records if r.rat_loser == 1 - seat),
                }
                for seat in seats
            ],
            "ties": {"games": ties, "percent_of_complete": _percent(ties, len(complete))},
            "scores_by_seat": [_distribution([r.scores[seat] for r in complete]) for seat in seats],
            "scores_together": _distribution([sum(r.scores) for r in complete]),
            "turns_per_game": _spread([r.turns for r in records]),
            "moves_per_game": _spread([r.moves for r in records]),
            "extent": _spread([r.extent for r in records]),
        }


def simulate_rattenscharf(
    games: int, policies: Sequence[str], *, seed: int, on_game=None
) -> RattenscharfStats:
    """Play ``games`` Rattenscharf games (game ``i`` with seed ``seed + i``), seat ``s``
    choosing by ``policies[s]`` (one policy: both seats), and return the totals.

    ``on_game`` (optional) gets each ``RattenscharfRecord`` as it finishes. Raises
    ``ValueError`` for arguments out of range and ``SimulationError`` if a game does not end.
    """
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be at least 1, not {games!r}")
    policies = tuple(policies)
    if len(policies) == 1:
        policies *= 2
    if len(policies) != 2:
        raise ValueError(f"give one policy or one per seat (2), not {len(policies)}")
    unknown = [policy for policy in policies if policy not in RATTENSCHARF_POLICIES]
    if unknown:
        raise ValueError(
            f"unknown policy {', '.join(unknown)}; policies: {', '.join(RATTENSCHARF_POLICIES)}"
        )
    stats = RattenscharfStats(policies)
    for number in range(games):
        record = play_rattenscharf_game(policies, seed=seed + number)
        stats.add(record)
        if on_game is not None:
            on_game(record)
    return stats
