"""Random self-play of Piratz with the pure engine, and the statistics balancing looks at.

No Django, database or clock here: ``manage.py simulate`` is the I/O shell around it
(progress bar, timing, printing), and tests call these functions directly.
"""

import random
from dataclasses import dataclass, field
from statistics import fmean

from games.rules import piratz

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
