"""Server time of the pages issue 36 names: a mid-game Piratz table, a late Rattenscharf
table and My games (as it opens, and with every ended game shown), with the Python calls
and queries each request makes.

Builds the pages' data on a fresh PostgreSQL database (dropped at the end) with the cache
on Redis, as in production: a four-player Piratz game played to about its middle
(``--piratz-moves``), a two-player Rattenscharf game played by careful bots until
``--rattenscharf-left`` strips are left to draw, and for the reader of My games a
realistic list (``--active`` running games, ``--finished`` finished ones, ``--invited``
open invitations; both kinds). Each page is fetched through the Django test client by a
signed-in player, ``--warmup`` times and then ``--requests`` times: the wall time's median
and p90 (the shared machine's load moves them), the thread's CPU time, and two counts the
load does not change: Python calls (a ``sys.setprofile`` hook, one counted pass) and
queries per request. ``--profile PAGE`` prints cProfile's heaviest functions for one page.

    .venv/bin/python bench/pages.py [--requests 50] [--profile piratz]

See BENCHMARKS.md ("Pages"). Not a test: nothing here asserts a time.
"""

import argparse
import cProfile
import io
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import api  # noqa: E402  (standard library until setup_django)

PAGES = ("piratz", "rattenscharf", "my-games", "my-games-all")


class CallCounter:
    """A ``sys.setprofile`` hook counting every Python and C call while it is set."""

    def __init__(self):
        self.calls = 0

    def __call__(self, frame, event, arg):
        if event in ("call", "c_call"):
            self.calls += 1

    def __enter__(self):
        self.calls = 0
        sys.setprofile(self)
        return self

    def __exit__(self, *exc_info):
        sys.setprofile(None)


def new_players(label: str, count: int) -> list:
    from accounts.models import User

    return [User.objects.create_user(f"{label}-{n}@bench.invalid") for n in range(count)]


def start(players: list, kind: str, rng: random.Random):
    """A started game of ``players`` (seat order), dealt from a seed of ``rng`` as the
    tests' ``start_game`` deals it, so every run builds the same tables."""
    from django.db import transaction

    from games import actions

    with transaction.atomic():
        game = actions.do_create_arranged_game(
            players[0], players, game=kind, turn_hours=72, rated=True
        )
    rules = game.rules
    deal = rules.new_game(len(players), seed=rng.randrange(2**32), **game.rules_options())
    game.state = rules.dump(deal)
    game.save(update_fields=["state"])
    return game


def play(game, players: list, rng: random.Random, *, until) -> object:
    """Play ``game`` (each seat by its player) while it is active and ``until(game, view)``
    is false; the view is the seat to move's. Returns the game as it is then."""
    from games import actions
    from games.kinds.piratz.rules.bots import random_action
    from games.kinds.rattenscharf.rules.bots import choose_action
    from games.models import Game

    while True:
        game = Game.objects.get(id=game.id)
        if not game.is_active:
            return game
        view = game.table_view(game.current_seat)
        if until(game, view):
            return game
        if game.game == "piratz":
            action = random_action(view["legal_actions"], rng, 0.7)
        else:
            action = choose_action(view, "careful", rng)
        actions.do_play_move(game.id, players[game.current_seat], game.version, action)


def build(rng: random.Random, args) -> dict:
    """The three pages' data; returns each page's path and the user who reads it."""
    from games import actions
    from games.models import Game
    from games.views.lobby import ENDED_GAMES_SHOWN

    reader, *others = new_players("reader", 1) + new_players("other", 7)
    # The Piratz table: four players, about the middle of a game (123 moves on average).
    piratz_players = [reader, *others[:3]]
    piratz = start(piratz_players, "piratz", rng)
    piratz = play(piratz, piratz_players, rng, until=lambda g, v: g.version >= args.piratz_moves)
    # The late Rattenscharf table: careful bots, so the game reaches the crowded end.
    for attempt in range(20):
        players = [reader, others[attempt % 7]]
        ratten = start(players, "rattenscharf", rng)
        ratten = play(
            ratten, players, rng, until=lambda g, v: v["draw_pile"] <= args.rattenscharf_left
        )
        if ratten.is_active:
            break
    else:
        raise api.BenchError("no Rattenscharf game reached its late turns in 20 tries")
    # My games: the reader's other games, running, finished and invited, both kinds.
    for number in range(args.active):
        kind = "piratz" if number % 3 else "rattenscharf"
        players = [reader, *rng.sample(others, 3 if kind == "piratz" else 1)]
        moves = rng.randrange(2, 12)
        play(
            start(players, kind, rng),
            players,
            rng,
            until=lambda g, v, moves=moves: g.version >= moves,
        )
    for number in range(args.finished):
        kind = "piratz" if number % 2 else "rattenscharf"
        players = [reader, *rng.sample(others, 2 if kind == "piratz" else 1)]
        play(start(players, kind, rng), players, rng, until=lambda g, v: False)
    for number in range(args.invited):
        host = others[number % 7]
        actions.do_create_game(host, [host.email, reader.email, others[(number + 1) % 7].email])
    finished = Game.objects.filter(seats__user=reader, status="finished").count()
    running = Game.objects.filter(seats__user=reader, status="active").count()
    shown = min(finished, ENDED_GAMES_SHOWN)
    return {
        "piratz": (f"/games/{piratz.id}/", reader, f"move {piratz.version}, round {piratz.round}"),
        "rattenscharf": (
            f"/games/{ratten.id}/",
            reader,
            f"move {ratten.version}, {ratten.table_view(0)['draw_pile']} strips left to draw",
        ),
        "my-games": (
            "/games/",
            reader,
            f"{running} running, {finished} finished ({shown} shown), {args.invited} invitations",
        ),
        # The same list with every ended game ("Show … older ended games").
        "my-games-all": ("/games/?ended=all", reader, f"{finished} finished shown"),
    }


def measure(path: str, reader, requests: int, warmup: int) -> dict:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(SERVER_NAME=api.HOST)
    client.force_login(reader)
    for _ in range(warmup):
        answer = client.get(path)
        if answer.status_code != 200:
            raise api.BenchError(f"GET {path}: {answer.status_code}")
    walls, cpus = [], []
    for _ in range(requests):
        start_wall, start_cpu = time.perf_counter(), time.thread_time()
        client.get(path)
        walls.append(time.perf_counter() - start_wall)
        cpus.append(time.thread_time() - start_cpu)
    with CaptureQueriesContext(connection) as queries, CallCounter() as counter:
        client.get(path)
    return {
        "wall_median": statistics.median(walls) * 1000,
        "wall_p90": api.percentile(walls, 90) * 1000,
        "cpu_median": statistics.median(cpus) * 1000,
        "calls": counter.calls,
        "queries": len(queries.captured_queries),
    }


def profile(path: str, reader, requests: int, top: int) -> str:
    from django.test import Client

    client = Client(SERVER_NAME=api.HOST)
    client.force_login(reader)
    client.get(path)
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(requests):
        client.get(path)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=50, help="timed requests a page")
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--piratz-moves", type=int, default=60)
    parser.add_argument("--rattenscharf-left", type=int, default=2)
    parser.add_argument("--active", type=int, default=10, help="My games: running games")
    parser.add_argument("--finished", type=int, default=30, help="My games: finished games")
    parser.add_argument("--invited", type=int, default=2, help="My games: open invitations")
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--profile", nargs="+", choices=PAGES, help="cProfile these pages instead")
    parser.add_argument("--top", type=int, default=40, help="functions --profile prints")
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/piratz_h6_pages"
    )
    parser.add_argument("--cache-url", default="redis://127.0.0.1:6379/10")
    args = parser.parse_args(argv)
    with api.django_on_fresh_database(args.database_url, args.cache_url) as django:
        pages = build(random.Random(args.seed), args)
        print(f"{api.cpu_model()}; PostgreSQL {django.server_version}; load {_load()}")
        if args.profile:
            for page in args.profile:
                path, reader, what = pages[page]
                print(f"{page} ({what}):")
                print(profile(path, reader, args.requests, args.top))
            return 0
        print(
            f"{'page':14} {'wall p50':>9} {'wall p90':>9} {'CPU p50':>8} {'calls':>8}"
            f" {'queries':>7}  (ms; {args.requests} requests after {args.warmup})"
        )
        for page in PAGES:
            path, reader, what = pages[page]
            row = measure(path, reader, args.requests, args.warmup)
            print(
                f"{page:14} {row['wall_median']:9.1f} {row['wall_p90']:9.1f}"
                f" {row['cpu_median']:8.1f} {row['calls']:8,} {row['queries']:7}  {what}"
            )
        print(f"load {_load()}; wall times measured on a shared, loaded machine")
    return 0


def _load() -> str:
    import os

    return " ".join(f"{value:.1f}" for value in os.getloadavg())


if __name__ == "__main__":
    try:
        sys.exit(main())
    except api.BenchError as error:
        sys.exit(f"bench/pages.py: {error}")
