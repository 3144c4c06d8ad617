"""``manage.py simulate``: play many games with a pure engine and print statistics: random
Piratz games, or Rattenscharf games by a policy (``--game rattenscharf``)."""

import json
import secrets
import time

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from games.rules.rattenscharf.board import TABLE_MAX
from games.simulation import (
    RATTENSCHARF_POLICIES,
    SimulationError,
    simulate,
    simulate_rattenscharf,
)

GAMES = ("piratz", "rattenscharf")


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
        "Play games with the pure rules engine (no database) and print statistics for "
        "balancing. Piratz (default): random games; moves, rounds and rat alerts per game, "
        "wins and average score by seat, shared victories, and speed. Rattenscharf (--game "
        "rattenscharf, 2 players): games played by --policy; games lost to rats per seat, "
        "score distribution per seat (completed games), ties, wins per seat, game length "
        "and how far the table spread: the numbers that judge a strip list. A progress bar "
        "goes to stderr when it is a terminal; the statistics go to stdout (as JSON with "
        "--json)."
    )
    # Pure engine work: nothing here depends on the project's models or configuration.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument(
            "--game",
            default="piratz",
            choices=GAMES,
            help="Which game to play (default piratz).",
        )
        parser.add_argument(
            "--games", type=int, default=1000, help="How many games to play (at least 1; 1000)."
        )
        parser.add_argument(
            "--players",
            type=int,
            choices=(2, 3, 4),
            help="Players per game: 2, 3 or 4 for Piratz (default 4); Rattenscharf is for 2.",
        )
        parser.add_argument(
            "--policy",
            nargs="+",
            metavar="POLICY",
            help=(
                "Rattenscharf only: how the seats choose, one policy for both seats or one "
                f"per seat ({', '.join(RATTENSCHARF_POLICIES)}; default strong). random: a "
                "uniformly random legal action; timeout: the stand-in of rules R35; careful "
                "and strong: the bots (strong costs about 1 s per game)."
            ),
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
            help="Piratz only: play with the blind option (rules P23); it hides information.",
        )
        parser.add_argument(
            "--reveal-bias",
            type=float,
            help=(
                "Piratz only: probability (0 to 1) that a player reveals outright when it "
                "can, and ends the turn rather than pass after a reveal (default 0.7); "
                "otherwise the move is uniform among all legal ones, so 0 is plain uniform "
                "random play."
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
        games = options["games"]
        # Checked here, not only by argparse: call_command(games=0) skips the parser's checks.
        if games < 1:
            raise CommandError(f"--games must be at least 1, not {games}.")
        game = options["game"]
        if game not in GAMES:
            raise CommandError(f"--game must be one of {', '.join(GAMES)}, not {game}.")
        if game == "rattenscharf":
            return self.handle_rattenscharf(games, options)
        if options["policy"] is not None:
            raise CommandError("--policy is for Rattenscharf; Piratz games are random.")
        players = 4 if options["players"] is None else options["players"]
        reveal_bias = 0.7 if options["reveal_bias"] is None else options["reveal_bias"]
        if players not in (2, 3, 4):
            raise CommandError(f"--players must be 2, 3 or 4, not {players}.")
        if not 0 <= reveal_bias <= 1:
            raise CommandError(f"--reveal-bias must be between 0 and 1, not {reveal_bias}.")
        self.run(
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
            format_summary=self.format_summary,
        )

    def run(self, games, options, play, *, settings, format_summary, errors=(SimulationError,)):
        """Play the run behind a progress bar and write its summary (JSON or lines).

        ``play(seed, on_game)`` plays ``games`` games and returns their statistics;
        ``settings`` are the run's own settings for the summary, after its seed; an error
        of ``errors`` is the command's error, not a traceback.
        """
        seed, seed_given = self.seed(options)
        progress = self.progress(games, options)
        started = time.perf_counter()
        try:
            stats = play(seed, lambda record: progress.update())
        except errors as error:
            raise CommandError(str(error)) from None
        finally:
            progress.close()
        elapsed = time.perf_counter() - started
        summary = {
            **stats.summary(),
            "seed": seed,
            **settings,
            "elapsed_seconds": round(elapsed, 3),
            "games_per_second": round(games / elapsed, 1) if elapsed else None,
        }
        if options["json"]:
            self.stdout.write(json.dumps(summary, indent=2))
        else:
            self.stdout.write(format_summary(summary, seed_given=seed_given))

    @staticmethod
    def seed(options) -> tuple[int, bool]:
        """The run's seed and whether it was given (else a random one, printed to repeat it)."""
        seed = options["seed"]
        if seed is not None:
            return seed, True
        return secrets.randbits(32), False

    def progress(self, games: int, options) -> tqdm:
        return tqdm(
            total=games,
            unit="game",
            file=_ProgressStream(self.stderr),
            disable=True if options["no_progress"] else None,
        )

    def handle_rattenscharf(self, games: int, options) -> None:
        if options["players"] not in (None, 2):
            raise CommandError(f"Rattenscharf is for 2 players, not {options['players']}.")
        if options["blind"]:
            raise CommandError("Rattenscharf has no blind option: only the draw order is hidden.")
        if options["reveal_bias"] is not None:
            raise CommandError("--reveal-bias is for Piratz; choose Rattenscharf play by --policy.")
        policies = tuple(options["policy"] or ("strong",))
        self.run(
            games,
            options,
            lambda seed, on_game: simulate_rattenscharf(
                games, policies, seed=seed, on_game=on_game
            ),
            settings={},
            format_summary=self.format_rattenscharf,
            errors=(ValueError, SimulationError),
        )

    @staticmethod
    def format_rattenscharf(summary: dict, *, seed_given: bool) -> str:
        """The Rattenscharf statistics as aligned lines for a person."""
        seed = summary["seed"]
        repeat = "" if seed_given else f" (random; --seed {seed} repeats this run)"
        games = summary["games"]

        def seat_label(row):
            return f"seat {row['seat']} ({row['colour']})"

        def spread(values):
            return f"mean {values['mean']:.2f}, min {values['min']}, max {values['max']}"

        policies = summary["policies"]
        rats, complete, ties = summary["rat_losses"], summary["complete"], summary["ties"]
        lines = [
            f"Games played:        {games} of Rattenscharf; seat 0 plays {policies[0]}, "
            f"seat 1 plays {policies[1]}",
            f"Seed:                {seed}{repeat}; game i uses seed {seed}+i",
            f"Lost to rats:        {rats['games']} games ({rats['percent']:.2f}%)",
            *(
                f"  {seat_label(row)}: {row['games']} ({row['percent']:.2f}% of games)"
                for row in summary["rat_losses_by_seat"]
            ),
            f"Completed:           {complete['games']} games ({complete['percent']:.2f}%)",
            f"Ties:                {ties['games']} ({ties['percent_of_complete']:.2f}% of "
            "completed games; a tie is a win for both)",
            "Wins by seat:",
            *(
                f"  {seat_label(row)}: {row['wins']} ({row['percent']:.2f}%), "
                f"{row['by_rats']} of them by the other's rats"
                for row in summary["wins_by_seat"]
            ),
            "Scores of completed games:",
            f"  {'':<15} {'mean':>7} {'sd':>6} {'min':>5} {'q1':>6} {'median':>7} "
            f"{'q3':>6} {'max':>5}",
        ]
        rows = [
            (seat_label(row), scores)
            for row, scores in zip(summary["wins_by_seat"], summary["scores_by_seat"], strict=True)
        ]
        rows.append(("both together", summary["scores_together"]))
        for label, scores in rows:
            if scores is None:
                lines.append(f"  {label:<15} (no completed game)")
                continue
            lines.append(
                f"  {label:<15} {scores['mean']:>7.2f} {scores['sd']:>6.2f} {scores['min']:>5} "
                f"{scores['q1']:>6.1f} {scores['median']:>7.1f} {scores['q3']:>6.1f} "
                f"{scores['max']:>5}"
            )
        lines += [
            f"Turns per game:      {spread(summary['turns_per_game'])}",
            f"Moves per game:      {spread(summary['moves_per_game'])}",
            f"Table reached:       largest |x| or |y| {spread(summary['extent'])} "
            f"(the edge is {TABLE_MAX})",
            f"Elapsed:             {summary['elapsed_seconds']:.2f} s "
            f"({summary['games_per_second']} games/s)",
        ]
        return "\n".join(lines)

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
