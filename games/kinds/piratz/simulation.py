"""Piratz's self-play: random games and their statistics for balancing, and
``manage.py simulate --game piratz`` (``GameSpec.simulate``).

The self-play functions are pure (the engine only); the command part raises Django's
``CommandError``.
"""

import random
from dataclasses import dataclass, field

from django.core.management.base import CommandError

from games import simulation as selfplay
from games.kinds.piratz import rules as piratz

# The random player is the ``random`` bot level: one policy for simulate, the benches,
# the playout tests and the bots.
from games.kinds.piratz.rules.bots import random_action as choose_action

__all__ = ["GameRecord", "SimulationStats", "choose_action", "play_random_game", "simulate"]


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
        if moves >= selfplay.MAX_MOVES_PER_GAME:
            limit = selfplay.MAX_MOVES_PER_GAME
            raise selfplay.SimulationError(
                f"a {players}-player game (seed {seed}) did not end in {limit} moves"
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
            "moves_per_game": selfplay.spread(self.moves),
            "rounds_per_game": selfplay.spread(self.rounds),
            "rat_alerts_per_game": selfplay.spread(self.rat_alerts),
            "wins_by_seat": [
                {"seat": seat, "wins": wins, "percent": selfplay.percent(wins, games)}
                for seat, wins in enumerate(self.wins)
            ],
            "shared_victories": {
                "games": self.shared_victories,
                "percent": selfplay.percent(self.shared_victories, games),
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


def add_simulation_arguments(group) -> None:
    """Piratz's own options of ``manage.py simulate`` (``GameSpec.add_simulation_arguments``)."""
    group.description = (
        "Random games: moves, rounds and rat alerts per game, wins and average score by "
        "seat, shared victories."
    )
    group.add_argument(
        "--blind",
        action="store_true",
        help="Play with the blind option (rules P23); it hides information.",
    )
    group.add_argument(
        "--reveal-bias",
        type=float,
        help=(
            "Probability (0 to 1) that a player reveals outright when it can, and ends the "
            "turn rather than pass after a reveal (default 0.7); otherwise the move is "
            "uniform among all legal ones, so 0 is plain uniform random play."
        ),
    )


def simulate_command(command, games: int, options) -> None:
    """Validate the Piratz options and play the run through ``command.run``."""
    players = 4 if options["players"] is None else options["players"]
    reveal_bias = 0.7 if options["reveal_bias"] is None else options["reveal_bias"]
    if players not in (2, 3, 4):
        raise CommandError(f"--players must be 2, 3 or 4, not {players}.")
    if not 0 <= reveal_bias <= 1:
        raise CommandError(f"--reveal-bias must be between 0 and 1, not {reveal_bias}.")
    command.run(
        games,
        options,
        lambda seed, on_game: simulate(
            games,
            players,
            seed=seed,
            blind=options["blind"],
            reveal_bias=reveal_bias,
            on_game=on_game,
        ),
        settings={"blind": options["blind"], "reveal_bias": reveal_bias},
        format_summary=format_summary,
    )


def format_summary(summary: dict, *, seed_given: bool) -> str:
    """The statistics as a few aligned lines for a person."""

    def spread(key):
        values = summary[key]
        return f"mean {values['mean']:.2f}, min {values['min']}, max {values['max']}"

    seed = summary["seed"]
    repeat = "" if seed_given else f" (random; --seed {seed} repeats this run)"
    scores = summary["average_score_by_seat"]
    by_seat = ", ".join(f"seat {seat} {score:.2f}" for seat, score in enumerate(scores))
    shared = summary["shared_victories"]
    lines = [
        f"Games played:        {summary['games']} with {summary['players']} players"
        f"{', blind' if summary['blind'] else ''}, reveal bias {summary['reveal_bias']}",
        f"Seed:                {seed}{repeat}; game i uses seed {seed}+i",
        f"Moves per game:      {spread('moves_per_game')}",
        f"Rounds per game:     {spread('rounds_per_game')}",
        f"Rat alerts per game: {spread('rat_alerts_per_game')}",
        "Wins by seat (a shared victory counts as a win for every winner):",
        *(
            f"  seat {row['seat']}: {row['wins']} ({row['percent']:.2f}%)"
            for row in summary["wins_by_seat"]
        ),
        f"Shared victories:    {shared['games']} games ({shared['percent']:.2f}%)",
        f"Average score:       {summary['average_score']:.2f} ({by_seat})",
        f"Elapsed:             {summary['elapsed_seconds']:.2f} s "
        f"({summary['games_per_second']} games/s)",
    ]
    return "\n".join(lines)
