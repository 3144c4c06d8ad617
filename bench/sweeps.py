"""Benchmark of the deadline sweep and of email latency, on PostgreSQL and Redis.

Part 1, the sweep: with 10,000 and then 100,000 active games, time an empty sweep (and
print its query plan: the ``game_active_deadline`` partial index) and sweeps of 100 and
1,000 overdue games, each played by one in-process ``play_due_timeouts()`` call, as one
worker runs it. Part 2, latency: a real ``celery`` worker on Redis sends the emails to an
SMTP sink on 127.0.0.1 (aiosmtpd); one move at a time is played in-process, each passing
the turn, and the time from its commit to its turn email's end of DATA is recorded.

The bench database is dropped and recreated (default ``piratz_h8_bench``), and dropped
again at the end; the Redis database (default ``redis://127.0.0.1:6379/8``) is flushed.
See BENCHMARKS.md ("Sweeps") for results. Not a test: nothing here asserts a time.
"""

import argparse
import cProfile
import os
import platform
import pstats
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# The database helpers of the HTTP benchmark: create, migrate, set up Django, drop.
from bench import api as bench_api  # noqa: E402

BenchError = bench_api.BenchError

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/piratz_h8_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/8"


def flush_broker(url: str) -> None:
    """Empty the broker's queue: a Redis database, or the filesystem broker's folder."""
    if url.startswith("redis://"):
        import redis

        redis.Redis.from_url(url).flushdb()
    else:
        from django.conf import settings

        folder = Path(settings.CELERY_BROKER_TRANSPORT_OPTIONS["data_folder_in"])
        for message in folder.glob("*.msg"):
            message.unlink()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


# --- Data --------------------------------------------------------------------------------------


def template_game():
    """One active two-player game made through the actions, as the service makes them."""
    from accounts.models import User
    from games import actions

    anna = User.objects.create_user(f"anna-{uuid.uuid4().hex[:8]}@bench.invalid")
    bert = User.objects.create_user(f"bert-{uuid.uuid4().hex[:8]}@bench.invalid")
    game = actions.do_create_game(anna, [anna.email, bert.email])
    actions.do_accept_invitation(game.id, bert)
    game.refresh_from_db()
    return game


def clone_games(template, count: int, batch: int = 5000) -> None:
    """``count`` copies of ``template`` (every column, its seats), deadlines 1 to 72 h ahead."""
    from django.utils import timezone

    from games.models import Game, Seat

    fields = [f.attname for f in Game._meta.concrete_fields if f.attname != "id"]
    seat_fields = [f.attname for f in Seat._meta.concrete_fields if f.attname != "id"]
    seats = list(Seat.objects.filter(game_id=template.id))
    now = timezone.now()
    for start in range(0, count, batch):
        games = [
            Game(
                id=uuid.uuid4(),
                **{
                    **{f: getattr(template, f) for f in fields},
                    # Spread over the turn: none due until made due below.
                    "deadline": now + timedelta(hours=1, seconds=(start + i) * 7 % 255_600),
                },
            )
            for i in range(min(batch, count - start))
        ]
        Game.objects.bulk_create(games)
        Seat.objects.bulk_create(
            [
                Seat(**{**{f: getattr(s, f) for f in seat_fields}, "game_id": g.id})
                for g in games
                for s in seats
            ]
        )


def make_due(count: int) -> None:
    """Move the deadline of ``count`` random active games into the last hour."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_game SET deadline = now() - random() * interval '1 hour'"
            " WHERE id IN (SELECT id FROM games_game WHERE status = 'active'"
            " AND deadline > now() ORDER BY random() LIMIT %s)",
            [count],
        )


def analyze() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_game")


def active_games() -> int:
    from games.models import Game

    return Game.objects.filter(status="active").count()


# --- Part 1: the sweep ------------------------------------------------------------------------


def empty_sweep_ms(repeat: int) -> tuple[float, float]:
    """Median and p99 of ``play_due_timeouts()`` with nothing due, in milliseconds."""
    from games.sweeps import play_due_timeouts

    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        assert play_due_timeouts() == 0
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), percentile(times, 0.99)


def claim_plan() -> str:
    """EXPLAIN ANALYZE of the sweep's claim query, as the sweep sends it."""
    from django.db import connection, transaction
    from django.utils import timezone

    from games.sweeps import due_games

    queryset = due_games(timezone.now()).select_for_update(skip_locked=True)
    queryset = queryset.values_list("id", "version")[:1]
    with transaction.atomic():
        sql, params = queryset.query.get_compiler(using="default").as_sql()
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
            return "\n".join(row[0] for row in cursor.fetchall())


def timed_sweep(due: int, profile: bool = False) -> dict:
    """Make ``due`` games overdue, then time one sweep that plays them all."""
    from django.db import connection

    from games.sweeps import play_due_timeouts

    make_due(due)
    analyze()
    profiler = cProfile.Profile() if profile else None
    # CPU time as well as wall time: on a shared, busy machine the wall time is mostly
    # waiting for a core; the CPU time is what the sweep itself costs.
    database = connection.settings_dict["NAME"]
    cpu_started = (time.process_time(), bench_api.postgres_cpu_seconds(database))
    started = time.perf_counter()
    if profiler:
        profiler.enable()
    played = play_due_timeouts()
    seconds = time.perf_counter() - started
    python_cpu = time.process_time() - cpu_started[0]
    postgres_cpu = bench_api.cpu_used(cpu_started[1], bench_api.postgres_cpu_seconds(database))
    if profiler:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
    if played != due:
        raise BenchError(f"the sweep played {played} games, {due} were due")
    return {
        "due": due,
        "seconds": seconds,
        "ms_per_game": seconds * 1000 / due,
        "python_cpu_ms_per_game": python_cpu * 1000 / due,
        "postgres_cpu_ms_per_game": postgres_cpu * 1000 / due,
    }


def part_sweep(args) -> list[dict]:
    rows = []
    template = template_game()
    for target in args.active:
        clone_games(template, target - active_games())
        analyze()
        active = active_games()
        median, p99 = empty_sweep_ms(args.repeat)
        row = {"active": active, "empty_median_ms": median, "empty_p99_ms": p99}
        for due in args.due:
            row[f"due_{due}"] = timed_sweep(due, profile=args.profile)
            result = row[f"due_{due}"]
            print(
                f"  {active:,} active, {due:,} due: {result['seconds']:.2f} s; CPU per game "
                f"{result['python_cpu_ms_per_game']:.1f} ms Python, "
                f"{result['postgres_cpu_ms_per_game']:.1f} ms PostgreSQL"
            )
        print(f"  {active:,} active, empty sweep: median {median:.2f} ms, p99 {p99:.2f} ms")
        rows.append(row)
    print("\nThe claim query's plan with nothing due:\n" + claim_plan())
    return rows


# --- Part 2: commit-to-SMTP latency -----------------------------------------------------------


def start_worker(env: dict[str, str], smtp_port: int, log: Path) -> subprocess.Popen:
    worker_env = {
        **env,
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(smtp_port),
        "LOG_LEVEL": "WARNING",
    }
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "piratz_site", "worker", "-c", "2"]
            + ["--loglevel", "WARNING", "--without-gossip", "--without-mingle"]
            + ["--without-heartbeat"],
            cwd=ROOT,
            env=worker_env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return process


def part_latency(args, env: dict[str, str]) -> dict:
    from aiosmtpd.controller import Controller
    from django.db import transaction
    from django.utils import timezone

    from games import actions
    from games.kinds.piratz import rules as piratz
    from games.models import Game
    from notifications.models import OutboundEmail

    arrivals: list[tuple[float, str]] = []

    class Sink:
        async def handle_DATA(self, server, session, envelope):
            arrivals.append((time.time(), envelope.rcpt_tos[0]))
            return "250 accepted"

    port = bench_api.servers.free_port()
    controller = Controller(Sink(), hostname="127.0.0.1", port=port)
    controller.start()
    # Part 1's emails and their send tasks (no worker ran then): not this part's business.
    OutboundEmail.objects.all().delete()
    flush_broker(args.redis_url)
    template = template_game()
    clone_games(template, args.moves - 1)
    games = list(
        Game.objects.filter(status="active", version=0, seats__user=template.host).values_list(
            "id", flat=True
        )
    )[: args.moves]
    Game.objects.filter(id__in=games).update(deadline=timezone.now() + timedelta(hours=72))
    log = Path(args.worker_log)
    worker = start_worker(env, port, log)
    latencies = []
    try:
        time.sleep(args.warmup)  # the worker's pool forks and connects
        state = piratz.load(Game.objects.get(id=games[0]).state)
        action = next(a for a in piratz.legal_actions(state, 0) if a["action"] == "pass")
        bert = next(s.user.email for s in template.seats.select_related("user") if s.seat == 1)
        for game_id in games:
            before = len(arrivals)
            stamp: list[float] = []
            with transaction.atomic():
                # Registered first, so it runs first after the commit: before the move's
                # own after-commit work (publishing the send task), which counts as latency.
                transaction.on_commit(lambda stamp=stamp: stamp.append(time.time()))
                actions.do_play_move(game_id, template.host, 0, action)
            committed = stamp[0]
            deadline = time.monotonic() + 30
            while not any(to == bert for _, to in arrivals[before:]):
                if time.monotonic() > deadline:
                    raise BenchError(f"no turn email within 30 s; see {log}")
                time.sleep(0.001)
            arrived = next(at for at, to in arrivals[before:] if to == bert)
            latencies.append((arrived - committed) * 1000)
    finally:
        worker.send_signal(signal.SIGTERM)  # warm shutdown: the worker stops its pool
        worker.wait(timeout=30)
        controller.stop()
    return {
        "moves": len(latencies),
        "p50_ms": percentile(latencies, 0.5),
        "p90_ms": percentile(latencies, 0.9),
        "p99_ms": percentile(latencies, 0.99),
        "max_ms": max(latencies),
    }


# --- Main --------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument(
        "--redis-url",
        default=DEFAULT_REDIS_URL,
        help="the broker; 'filesystem://' measures make run's (in a temporary folder)",
    )
    parser.add_argument("--active", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--due", type=int, nargs="+", default=[100, 1_000])
    parser.add_argument("--repeat", type=int, default=200, help="empty sweeps timed")
    parser.add_argument("--moves", type=int, default=200, help="moves timed for latency")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--worker-log", default="/tmp/piratz-bench-worker.log")
    parser.add_argument("--skip-sweep", action="store_true")
    parser.add_argument("--skip-latency", action="store_true")
    parser.add_argument("--profile", action="store_true", help="cProfile each timed sweep")
    args = parser.parse_args()

    url, name = bench_api.checked_database_url(args.database_url)
    server_version = bench_api.recreate_database(url, name)
    # As production: the cache (throttles, the outbox's wake-up flag) on the broker's Redis.
    on_redis = not args.redis_url.startswith("filesystem://")
    env = bench_api.django_environment(url, args.redis_url if on_redis else "")
    env["CELERY_BROKER_URL"] = args.redis_url
    if not on_redis:
        env["CELERY_BROKER_DIR"] = tempfile.mkdtemp(prefix="piratz-bench-broker-")
    env["LOG_LEVEL"] = "WARNING"
    try:
        bench_api.migrate(env, timeout=300)
        bench_api.setup_django(env)
        flush_broker(args.redis_url)
        print(
            f"{bench_api.cpu_model()}, {os.cpu_count()} CPUs, load "
            f"{os.getloadavg()[0]:.1f}; PostgreSQL {server_version}; "
            f"Python {platform.python_version()}"
        )
        if not args.skip_sweep:
            print("Part 1: the deadline sweep")
            for row in part_sweep(args):
                print(row)
        if not args.skip_latency:
            print("Part 2: commit to SMTP, a worker running")
            print(part_latency(args, env))
    finally:
        from django.db import connections

        connections.close_all()
        flush_broker(args.redis_url)
        if "CELERY_BROKER_DIR" in env:
            shutil.rmtree(env["CELERY_BROKER_DIR"], ignore_errors=True)
        with bench_api.admin_connection(url) as connection:
            bench_api.drop_database(connection, name)


if __name__ == "__main__":
    try:
        main()
    except BenchError as error:
        sys.exit(f"bench/sweeps.py: {error}")
