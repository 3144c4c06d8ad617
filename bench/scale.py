"""Scale-out on one machine: gunicorn workers (web) and Celery worker processes (background).

Web: runs ``bench/api.py`` once per gunicorn size (``--web``, workers x threads, default
1x1 2x1 2x2 2x32 4x2; 8 clients, one project phase and one bare phase each) and prints
its moves/s, bare writes/s, POST p99 and gunicorn's CPU per move side by side: how many
workers the cores take, and what more threads per worker cost.

Celery: for each worker-process count (``--celery-workers``, default 1 2), a fresh
database with BACKLOG two-player games all past their deadline, then WORKERS
``celery worker -c CONCURRENCY`` processes and one beat (``SWEEP_SECONDS=1``) on a Redis
of its own, mail to an SMTP sink: the time until every game's automatic move is played
(P24, one per game) and until every email they caused (the automatic-move and the
your-turn email of each) has reached the sink. Deadline sweeps running on several
workers split the backlog (``SKIP LOCKED``); the send tasks go to any worker.

The machine's load average is printed with every number: on a shared machine it
decides more than the worker count. See BENCHMARKS.md ("Scale-out").
"""

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import soak  # noqa: E402

bench_api = soak.bench_api
BenchError = bench_api.BenchError


def gunicorn_size(text: str) -> tuple[int, int]:
    """``--web``'s argument type: ``"2x1"`` is (2 workers, 1 thread each)."""
    workers, _, threads = text.lower().partition("x")
    try:
        size = int(workers), int(threads)
    except ValueError:
        size = (0, 0)
    if min(size) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give WORKERSxTHREADS, such as 2x1")
    return size


def web(args) -> None:
    print("web: gunicorn workers x threads, 8 clients, one project and one bare phase")
    for workers, threads in args.web:
        load = bench_api.os.getloadavg()[0]
        completed = subprocess.run(
            [sys.executable, str(ROOT / "bench" / "api.py"), "--workers", str(workers)]
            + ["--threads", str(threads)]
            + ["--rounds", "1", "--phase-seconds", str(args.phase_seconds)]
            + ["--games", str(args.games), "--database-url", args.database_url],
            capture_output=True,
            text=True,
            check=False,
        )
        out = completed.stdout
        numbers = {
            kind: re.search(
                rf"^phase \d: {kind}\s+([\d.]+) writes/s, POST p99 ([\d.]+) ms", out, re.M
            )
            for kind in ("project", "bare")
        }
        if completed.returncode not in (0, 1) or not all(numbers.values()):
            raise BenchError(f"bench/api.py failed:\n{out[-2000:]}\n{completed.stderr[-2000:]}")
        (moves, move_p99), (bare, bare_p99) = (numbers[k].groups() for k in ("project", "bare"))
        cpu = re.search(
            r"CPU per write \(with its GETs\): gunicorn ([\d.]+) ms, PostgreSQL >= ([\d.]+) ms",
            out,
        )
        gunicorn_cpu, postgres_cpu = cpu.groups() if cpu else ("?", "?")
        print(
            f"  {workers} x {threads}: {moves} moves/s (POST p99 {move_p99} ms; CPU a move: "
            f"gunicorn {gunicorn_cpu} ms, PostgreSQL {postgres_cpu} ms), bare {bare} "
            f"writes/s (p99 {bare_p99} ms); load average {load:.2f} before, "
            f"{bench_api.os.getloadavg()[0]:.2f} after",
            flush=True,
        )


def celery(args) -> None:
    print(
        f"celery: {args.backlog} games past their deadline, worker processes x "
        f"-c {args.concurrency}, SWEEP_SECONDS=1"
    )
    url, name = bench_api.checked_database_url(args.database_url)
    folder = Path(tempfile.mkdtemp(prefix="piratz-scale-"))
    port = bench_api.servers.free_port()
    redis = soak.start_redis(port, folder)  # one for every run, emptied before each
    env = {
        **bench_api.django_environment(url, f"redis://127.0.0.1:{port}/0"),
        "DJANGO_SETTINGS_MODULE": "piratz_site.settings",
        "SWEEP_SECONDS": "1",
        "LOG_LEVEL": "WARNING",
    }
    try:
        for workers in args.celery_workers:
            bench_api.recreate_database(url, name)
            bench_api.flush_redis(f"redis://127.0.0.1:{port}/0")
            children = []
            try:
                result = one_backlog(args, env, workers, folder, children)
                print(f"  {workers} worker(s): {result}", flush=True)
            finally:
                for child in reversed(children):
                    child.stop()
                from django.db import connections

                connections.close_all()
                with bench_api.admin_connection(url) as connection:
                    bench_api.drop_database(connection, name)
    finally:
        redis.stop()
        shutil.rmtree(folder, ignore_errors=True)


def one_backlog(args, env, workers: int, folder: Path, children: list) -> str:
    bench_api.migrate(env, timeout=300)
    bench_api.setup_django(env)
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Game, Move
    from notifications.models import OutboundEmail
    from tests.processes import SmtpSink

    sink = SmtpSink().start()
    worker_env = {
        **env,
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(sink.port),
    }
    soak.make_games(soak.make_users(20), args.backlog)
    set_up_emails = OutboundEmail.objects.count()  # the first game's invitation and start
    Game.objects.filter(status="active").update(deadline=timezone.now() - timedelta(seconds=1))
    load = bench_api.os.getloadavg()[0]
    start = time.monotonic()
    for number in range(workers):
        children.append(
            soak.Child(
                f"worker-{number}",
                [soak.CELERY, "-A", "piratz_site", "worker", "-n", f"scale{number}@%h"]
                + ["-c", str(args.concurrency), "--loglevel", "WARNING"]
                + ["--without-gossip", "--without-mingle", "--without-heartbeat"],
                worker_env,
                folder / f"worker-{number}.log",
            )
        )
    children.append(
        soak.Child(
            "beat",
            [soak.CELERY, "-A", "piratz_site", "beat", "--schedule", str(folder / "schedule")]
            + ["--loglevel", "WARNING"],
            worker_env,
            folder / "beat.log",
        )
    )
    games, played_at = args.backlog, None
    deadline = start + args.max_seconds
    while time.monotonic() < deadline:
        if played_at is None and Move.objects.filter(automatic=True).count() >= games:
            played_at = time.monotonic() - start
        if played_at is not None and sink.count() >= set_up_emails + 2 * games:
            break
        time.sleep(0.5)
    done = time.monotonic() - start
    sink.stop()
    automatic = Move.objects.filter(automatic=True).count()
    emails = sink.count() - set_up_emails
    played = "not all" if played_at is None else f"{played_at:.1f} s"
    return (
        f"{automatic}/{games} timeouts played in {played}, {emails}/{2 * games} of their "
        f"emails at the sink after {done:.1f} s ({automatic / done:.1f} games/s end to end, "
        f"processes started included); load average {load:.2f} before, "
        f"{bench_api.os.getloadavg()[0]:.2f} after"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("web", "celery", "both"), default="both")
    parser.add_argument(
        "--web",
        type=gunicorn_size,
        nargs="+",
        default=[(1, 1), (2, 1), (2, 2), (2, 32), (4, 2)],
        metavar="WORKERSxTHREADS",
        help="gunicorn sizes to run (default 1x1 2x1 2x2 2x32 4x2)",
    )
    parser.add_argument("--phase-seconds", type=float, default=15)
    parser.add_argument("--games", type=int, default=30, help="web: games ready per run")
    parser.add_argument("--celery-workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--concurrency", type=int, default=2, help="celery -c per worker")
    parser.add_argument("--backlog", type=int, default=500, help="celery: games due at once")
    parser.add_argument("--max-seconds", type=float, default=300, help="celery: per run")
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/piratz_bench_scale"
    )
    args = parser.parse_args(argv)
    print(
        f"machine: {bench_api.os.cpu_count()} cores ({bench_api.cpu_model()}); load average "
        f"{', '.join(f'{v:.2f}' for v in bench_api.os.getloadavg())}"
    )
    try:
        if args.part in ("web", "both"):
            web(args)
        if args.part in ("celery", "both"):
            celery(args)
    except BenchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
