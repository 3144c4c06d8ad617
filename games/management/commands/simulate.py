"""``manage.py simulate``: play many random Piratz games with the engine and print statistics."""

import json
import secrets
import time

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from games.simulation import SimulationError, simulate


class _ProgressStream:
    """Lets tqdm draw on a command's stderr.

    Django's ``OutputWrapper`` ends every write with a newline (and colours stderr as an
    error), which would turn tqdm's in-place ``\\r`` redraws into a scrolling list.
    """

    def __init__(self, wrapper):
        self.wrapper = wrapper

    def write(self, text: str) -> None:
        self.wrapper.write(text, style_func=lambda plain: plain, ending="")

    def flush(self) -> None:
        self.wrapper.flush()

    def isatty(self) -> bool:
        # tqdm's disable=None asks this: no progress bar when stderr is a file or pipe.
        return self.wrapper.isatty()


class Command(BaseCommand):
    help = (
        "Play random games of Piratz with the pure rules engine (no database) and print "
        "statistics for balancing: moves, rounds and rat alerts per game, wins and average "
        "score by seat, shared victories, and speed. A progress bar goes to stderr when it "
        "is a terminal; the statistics go to stdout (as JSON with --json)."
    )
    # Pure engine work: nothing here depends on the project's models or configuration.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument(
            "--games", type=int, default=1000, help="How many games to play (at least 1; 1000)."
        )
        parser.add_argument(
            "--players",
            type=int,
            default=4,
            choices=(2, 3, 4),
            help="Players per game: 2, 3 or 4 (default 4).",
        )
        parser.add_argument(
            "--seed",
            type=int,
            help=(
                "Make the run reproducible: game i is dealt and played with seed SEED+i. "
                "Without it a random seed is chosen and printed, so a run can be repeated."
            ),
        )
        parser.add_argument(
            "--blind",
            action="store_true",
            help="Play with the blind option (rules P23); it hides information, not moves.",
        )
        parser.add_argument(
            "--reveal-bias",
            type=float,
            default=0.7,
            help=(
                "Probability (0 to 1) that a player reveals outright when it can, and ends "
                "the turn rather than pass after a reveal (default 0.7); otherwise the move "
                "is uniform among all legal ones, so 0 is plain uniform random play."
            ),
        )
        parser.add_argument(
            "--json",
            action="store_true",
            help="Print the statistics as one JSON object (for balancing scripts).",
        )
        parser.add_argument(
            "--no-progress",
            action="store_true",
            help="Never show the progress bar (it is already off when stderr is not a terminal).",
        )

    def handle(self, *args, **options):
        games, players = options["games"], options["players"]
        reveal_bias = options["reveal_bias"]
        # Checked here, not only by argparse: call_command(games=0) skips the parser's checks.
        if games < 1:
            raise CommandError(f"--games must be at least 1, not {games}.")
        if players not in (2, 3, 4):
            raise CommandError(f"--players must be 2, 3 or 4, not {players}.")
        if not 0 <= reveal_bias <= 1:
            raise CommandError(f"--reveal-bias must be between 0 and 1, not {reveal_bias}.")
        seed = options["seed"]
        seed_given = seed is not None
        if not seed_given:
            seed = secrets.randbits(32)

        progress = tqdm(
            total=games,
            unit="game",
            file=_ProgressStream(self.stderr),
            disable=True if options["no_progress"] else None,
        )
        started = time.perf_counter()
        try:
            stats = simulate(
                games,
                players,
                seed=seed,
                blind=options["blind"],
                reveal_bias=reveal_bias,
                on_game=lambda record: progress.update(),
            )
        except SimulationError as error:
            raise CommandError(str(error)) from None
        finally:
            progress.close()
        elapsed = time.perf_counter() - started

        summary = {
            **stats.summary(),
            "seed": seed,
            "blind": options["blind"],
            "reveal_bias": reveal_bias,
            "elapsed_seconds": round(elapsed, 3),
            "games_per_second": round(games / elapsed, 1) if elapsed else None,
        }
        if options["json"]:
            self.stdout.write(json.dumps(summary, indent=2))
        else:
            self.stdout.write(self.format_summary(summary, seed_given=seed_given))

    @staticmethod
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
