"""``manage.py simulate``: play many games of one game (``--game``) with its pure engine and
print that game's statistics; each game brings its run and its own options (``GameSpec``)."""

import json
import secrets
import time

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from games.catalogue import all_specs, rules_for, spec_for
from games.simulation import SimulationError


def simulated_games() -> list[str]:
    """The games ``simulate`` plays: those whose spec has a ``simulate`` hook."""
    return [spec.kind for spec in all_specs() if spec.simulate is not None]


class _GameArguments:
    """The argument group a game adds its own options to, remembering which they are (so
    the command can refuse them with another game); its ``description`` is the text under
    the group's title in ``--help`` (what the game's run prints)."""

    def __init__(self, group):
        self.group = group
        self.actions: list = []

    def add_argument(self, *args, **kwargs):
        action = self.group.add_argument(*args, **kwargs)
        self.actions.append(action)
        return action

    @property
    def description(self) -> str | None:
        return self.group.description

    @description.setter
    def description(self, text: str) -> None:
        self.group.description = text


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
        "balancing: each game its own numbers (wins and scores by seat, game length, what "
        "decides its games) and speed. Each game's own options are listed under its name "
        "and refused with another --game. A progress bar goes to stderr when it is a "
        "terminal; the statistics go to stdout (as JSON with --json)."
    )
    # Pure engine work: nothing here depends on the project's models or configuration.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument(
            "--game",
            default=simulated_games()[0],
            choices=simulated_games(),
            help=f"Which game to play (default {simulated_games()[0]}).",
        )
        parser.add_argument(
            "--games", type=int, default=1000, help="How many games to play (at least 1; 1000)."
        )
        parser.add_argument(
            "--players",
            type=int,
            choices=sorted(
                {n for kind in simulated_games() for n in rules_for(kind).PLAYER_COUNTS}
            ),
            help="Players per game, as the game seats them (default: the game's own).",
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
            "--json",
            action="store_true",
            help="Print the statistics as one JSON object (for balancing scripts).",
        )
        parser.add_argument(
            "--no-progress",
            action="store_true",
            help="Never show the progress bar (it is already off when stderr is not a terminal).",
        )
        # Each game's own options, in a group of --help titled with its name.
        self.game_options: dict[str, list] = {}
        for spec in all_specs():
            if spec.simulate is None or spec.add_simulation_arguments is None:
                continue
            group = _GameArguments(parser.add_argument_group(f"{spec.name} (--game {spec.kind})"))
            spec.add_simulation_arguments(group)
            self.game_options[spec.kind] = group.actions

    def handle(self, *args, **options):
        games = options["games"]
        # Checked here, not only by argparse: call_command(games=0) skips the parser's checks.
        if games < 1:
            raise CommandError(f"--games must be at least 1, not {games}.")
        game = options["game"]
        if game not in simulated_games():
            raise CommandError(f"--game must be one of {', '.join(simulated_games())}, not {game}.")
        self.refuse_other_games_options(game, options)
        simulate = spec_for(game).simulate
        assert simulate is not None  # simulated_games() lists only games that have it
        simulate(self, games, options)

    def refuse_other_games_options(self, game: str, options) -> None:
        """A ``CommandError`` for an option of another game given (not at its default)."""
        for kind, actions in self.game_options.items():
            if kind == game:
                continue
            for action in actions:
                if options.get(action.dest, action.default) != action.default:
                    raise CommandError(
                        f"{action.option_strings[0]} is for {spec_for(kind).name} "
                        f"(--game {kind}), not {spec_for(game).name}."
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
