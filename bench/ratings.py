"""Benchmark of the rating update (ratings.service.rate_game): the server time one finished
game costs its players' ratings, and the model's own share (see BENCHMARKS.md "Ratings").

Runs in-process on the test settings' database (SQLite in memory unless DATABASE_URL says
otherwise): creates players and 4-player games, finishes them without the signal, then
times ``rate_game`` for each inside a transaction, as the game's end runs it. Prints ms.
"""

import argparse
import os
import platform
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import time_machine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "piratz_site.settings_test")

import django

django.setup()

from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import User  # noqa: E402
from games.models import Game, GameStatus  # noqa: E402
from ratings import service, skill  # noqa: E402
from tests.factories import start_game  # noqa: E402

START = datetime(2026, 1, 1, tzinfo=UTC)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def line(name, seconds):
    ms = [s * 1000 for s in seconds]
    return (
        f"{name:<28} p50 {statistics.median(ms):7.3f} ms  p99 {percentile(ms, 0.99):7.3f} ms  "
        f"max {max(ms):7.3f} ms"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description="Time the rating update of finished games.")
    parser.add_argument("--games", type=int, default=200, help="games to rate (default 200)")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4), help="default 4")
    parser.add_argument("--people", type=int, default=12, help="players to draw from")
    args = parser.parse_args(argv)
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0)
    try:
        rng = random.Random(1)
        people = [
            User.objects.create_user(f"p{n}@bench.example", display_name=f"P{n}")
            for n in range(args.people)
        ]
        update, model, queries = [], [], []
        for _ in range(args.games):
            seated = rng.sample(people, args.players)
            # A day a game: the hosts' daily invitation limits (games.invitation_limits)
            # would refuse the 17th game a host creates in one day.
            with time_machine.travel(START + timedelta(days=len(update)), tick=False):
                game = start_game(seated)
            scores = [rng.randrange(0, 20) for _ in seated]
            best = max(scores)
            outcome = {
                "players": [{"seat": s, "score": v} for s, v in enumerate(scores)],
                "winners": [s for s, v in enumerate(scores) if v == best],
            }
            # Finished without the signal, so that only rate_game is timed.
            Game.objects.filter(pk=game.pk).update(
                status=GameStatus.FINISHED, result=outcome, ended_at=timezone.now()
            )
            game.refresh_from_db()
            with transaction.atomic(), CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                service.rate_game(game)
                update.append(time.perf_counter() - started)
            queries.append(len(captured.captured_queries))
            ranks = skill.ranks_of(outcome, range(args.players))
            started = time.perf_counter()
            skill.rate([(skill.MU, skill.SIGMA)] * args.players, list(ranks.values()))
            model.append(time.perf_counter() - started)
        print(
            f"python {platform.python_version()}, {connection.vendor}, {args.games} games of "
            f"{args.players} players"
        )
        print(line("rate_game (with database)", update))
        print(line("the model alone", model))
        print(f"queries per update: {max(queries)}")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
