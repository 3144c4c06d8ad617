"""``manage.py tournament``: bots of several levels play each other with the pure engine."""

import json
import multiprocessing
import secrets
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import cast

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from games.catalogue import all_specs, rules_for
from games.engine_protocol import BotRulesModule
from games.management.commands.simulate import _ProgressStream
from games.simulation import (
    SimulationError,
    TournamentStats,
    check_tournament,
    engine_of,
    tournament_game,
)

# Games per task when the tournament is split between processes (--jobs): small enough
# for a lively progress bar, large enough that sending the work costs nothing.
CHUNK = 10


def percentile(sorted_values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``sorted_values`` lie (nearest rank)."""
    index = min(len(sorted_values) - 1, max(0, round(fraction * len(sorted_values)) - 1))
    return sorted_values[index]


def levels_of(rules) -> tuple[str, ...]:
    """The rules' bot levels. (``games.bots.levels_of`` imports the models, which a worker
    process started by --jobs cannot: it runs no Django set-up.)"""
    return tuple(getattr(rules, "BOT_LEVELS", ()))


# The games that offer bots (``BOT_LEVELS``), in registry order; the default is the first.


def bot_games() -> list[str]:
    """The games whose bots can play each other: those whose rules have ``BOT_LEVELS``."""
    return [spec.kind for spec in all_specs() if getattr(spec.rules, "BOT_LEVELS", ())]


def play_games(levels, players, seed, blind, numbers, game):
    """Play the tournament's games ``numbers``; return their records and each level's
    decision times in seconds. Module level, so that worker processes can run it."""
    timings: dict[str, list[float]] = {level: [] for level in levels}
    clock = time.perf_counter
    # ``game`` is the engine's module path (``engine:<path>``, see ``engine_of``): worker
    # processes run no Django set-up, so they import the pure engine, not the catalogue.
    # bot_games() lists only games that offer bots.
    rules = engine_of(game)
    choose_bot_action = cast(BotRulesModule, rules).choose_bot_action

    def timed_choice(view, level, rng, memory):
        started = clock()
        action = choose_bot_action(view, level, rng, memory)
        timings[level].append(clock() - started)
        return action

    records = [
        tournament_game(
            levels, players, number, seed=seed, blind=blind, choose=timed_choice, game=rules
        )
        for number in numbers
    ]
    return records, timings


class Command(BaseCommand):
    help = (
        "Let the bots of a game (--game) play each other with the pure "
        "rules engine (no database) and print, "
        "per level, the win rate (shared victories split) and mean score with 95% confidence "
        "intervals, which level beats which and how significantly, and the time per bot "
        "decision (p50/p99). Seats rotate and every deal is played in every seating, so "
        "neither position nor the deal favours a level. A progress bar goes to stderr."
    )
    # Pure engine work: nothing here depends on the project's models or configuration.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument(
            "--game",
            default=bot_games()[0],
            choices=bot_games(),
            help=f"Which game the bots play (default {bot_games()[0]}).",
        )
        levels = {game: ", ".join(levels_of(rules_for(game))) for game in bot_games()}
        parser.add_argument(
            "--bots",
            nargs="+",
            metavar="LEVEL",
            help=(
                "The bot levels that play (default all of the game's: "
                + "; ".join(f"{game}: {names}" for game, names in levels.items())
                + "). With fewer levels than players a level takes several seats."
            ),
        )
        parser.add_argument(
            "--games", type=int, default=200, help="How many games to play (at least 1; 200)."
        )
        parser.add_argument(
            "--players",
            type=int,
            choices=sorted({n for game in bot_games() for n in rules_for(game).PLAYER_COUNTS}),
            help="Players per game, as the game seats them (default: the most it seats).",
        )
        parser.add_argument(
            "--seed",
            type=int,
            help=(
                "Make the run reproducible (deals and every bot's chances). Without it a "
                "random seed is chosen and printed, so a run can be repeated."
            ),
        )
        parser.add_argument(
            "--blind",
            action="store_true",
            help=(
                "Play with the blind option, in a game that has one (Piratz's, rules P23): "
                "bots see no collections and only the move log a player may see."
            ),
        )
        parser.add_argument(
            "--jobs",
            type=int,
            default=1,
            help=(
                "Play in this many processes at once (default 1). The results are the same "
                "for any number; decision times are per decision, but a busy machine "
                "inflates them."
            ),
        )
        parser.add_argument(
            "--json", action="store_true", help="Print the results as one JSON object."
        )
        parser.add_argument(
            "--no-progress",
            action="store_true",
            help="Never show the progress bar (it is already off when stderr is not a terminal).",
        )

    def handle(self, *args, **options):
        games, players, jobs = options["games"], options["players"], options["jobs"]
        game = options["game"]
        if game not in bot_games():
            raise CommandError(f"--game must be one of {', '.join(bot_games())}, not {game}.")
        rules = rules_for(game)
        known = levels_of(rules)
        bots = options["bots"] or list(known)
        unknown = [level for level in bots if level not in known]
        if unknown:
            raise CommandError(
                f"Unknown bot level {', '.join(unknown)}; levels: {', '.join(known)}."
            )
        if players is None:
            players = max(rules.PLAYER_COUNTS)
        # Checked here, not only by argparse: call_command(games=0) skips the parser's checks.
        if games < 1:
            raise CommandError(f"--games must be at least 1, not {games}.")
        if players not in rules.PLAYER_COUNTS:
            counts = ", ".join(str(count) for count in rules.PLAYER_COUNTS)
            raise CommandError(f"--players must be {counts} for {rules.NAME}, not {players}.")
        if jobs < 1:
            raise CommandError(f"--jobs must be at least 1, not {jobs}.")
        if options["blind"] and "blind" not in rules.OPTIONS:
            raise CommandError(f"{rules.NAME} has no blind option.")
        levels = check_tournament(bots, games, players, game)
        seed = options["seed"]
        seed_given = seed is not None
        if not seed_given:
            seed = secrets.randbits(32)
        blind = options["blind"]
        # What a worker process (no Django) imports to play: the engine, by its module path.
        engine = f"engine:{rules.__name__}"

        chunks = [range(start, min(start + CHUNK, games)) for start in range(0, games, CHUNK)]
        progress = tqdm(
            total=games,
            unit="game",
            file=_ProgressStream(self.stderr),
            disable=True if options["no_progress"] else None,
        )
        stats = TournamentStats(levels)
        timings: dict[str, list[float]] = {level: [] for level in levels}
        started = time.perf_counter()
        try:
            results: Iterable
            if jobs == 1:
                results = (
                    play_games(levels, players, seed, blind, chunk, engine) for chunk in chunks
                )
                self._collect(results, stats, timings, progress)
            else:
                # Fresh interpreters, not forks of this one: forking a process that runs
                # threads (a test runner, a database driver) may deadlock the child.
                spawn = multiprocessing.get_context("spawn")
                with ProcessPoolExecutor(max_workers=jobs, mp_context=spawn) as pool:
                    # map yields in order, so the records are added as one process would.
                    play = partial(play_games, levels, players, seed, blind, game=engine)
                    results = pool.map(play, chunks)
                    self._collect(results, stats, timings, progress)
        except SimulationError as error:
            raise CommandError(str(error)) from None
        finally:
            progress.close()
        elapsed = time.perf_counter() - started

        summary = stats.summary()
        for row in summary["levels"]:
            values = sorted(timings[row["level"]])
            row["decisions"] = len(values)
            row["decision_ms_p50"] = 1000 * percentile(values, 0.50) if values else None
            row["decision_ms_p99"] = 1000 * percentile(values, 0.99) if values else None
            row["decision_ms_max"] = 1000 * values[-1] if values else None
        summary.update(
            game=game,
            players=players,
            blind=blind,
            jobs=jobs,
            seed=seed,
            elapsed_seconds=round(elapsed, 3),
        )
        if options["json"]:
            self.stdout.write(json.dumps(summary, indent=2))
        else:
            self.stdout.write(self.format_summary(summary, seed_given=seed_given))

    @staticmethod
    def _collect(results, stats, timings, progress):
        for records, chunk_timings in results:
            for record in records:
                stats.add(record)
            for level, values in chunk_timings.items():
                timings[level].extend(values)
            progress.update(len(records))

    @staticmethod
    def format_summary(summary: dict, *, seed_given: bool) -> str:
        """The results as an aligned table for a person."""
        seed = summary["seed"]
        repeat = "" if seed_given else f" (random; --seed {seed} repeats this run)"
        # The default game's table reads as it always has; another game is named.
        game = summary.get("game", bot_games()[0])
        of_game = "" if game == bot_games()[0] else f" of {rules_for(game).NAME}"
        lines = [
            f"Games played: {summary['games']}{of_game} with {summary['players']} players"
            f"{', blind' if summary['blind'] else ''}; seed {seed}{repeat}",
            "Win rate: a shared victory is split between its winners. "
            "± is the 95% confidence interval.",
            "",
            f"{'level':<8} {'seats':>6} {'win rate':>17} {'mean score':>15} "
            f"{'decisions':>10} {'p50 ms':>8} {'p99 ms':>8}",
        ]
        for row in summary["levels"]:
            p50 = row["decision_ms_p50"]
            p99 = row["decision_ms_p99"]
            lines.append(
                f"{row['level']:<8} {row['seats']:>6} "
                f"{100 * row['win_rate']:>8.1f}% ± {100 * row['win_rate_ci']:>4.1f}% "
                f"{row['mean_score']:>7.2f} ± {row['mean_score_ci']:>4.2f} "
                f"{row['decisions']:>10} "
                f"{'-' if p50 is None else f'{p50:.2f}':>8} "
                f"{'-' if p99 is None else f'{p99:.2f}':>8}"
            )
        if summary["pairs"]:
            lines += ["", "Pairwise (games where both sat; per game, win share and score):"]
        for pair in summary["pairs"]:
            verdict = "beats" if pair["significant"] else "is not significantly better than"
            lines.append(
                f"  {pair['better']} {verdict} {pair['worse']}: "
                f"win rate +{100 * pair['win_rate_difference']:.1f}% "
                f"± {100 * pair['win_rate_difference_ci']:.1f}%, "
                f"score {pair['score_difference']:+.2f} ± {pair['score_difference_ci']:.2f} "
                f"(z = {pair['z']:.1f}, p = {pair['p_value']:.2g}, {pair['games']} games)"
            )
        lines.append(f"Elapsed: {summary['elapsed_seconds']:.1f} s")
        return "\n".join(lines)
