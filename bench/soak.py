"""Soak: thousands of games in flight for minutes, with gunicorn, a Celery worker and beat.

Steps: (re)create a PostgreSQL database, start a Redis server of its own (broker and
throttle cache) on a free 127.0.0.1 port and an SMTP sink (aiosmtpd); make GAMES active
two-player games (one made through the actions, the rest bulk copies of it, each with
two of USERS players; deadlines 1-72 h ahead); start gunicorn, WORKERS Celery workers
and one beat (production settings; ``SWEEP_SECONDS`` short so the sweeps run often).
Then, for MINUTES:

- client threads play the "players'" games over HTTP, a turn at a time: a random game,
  its player to move GETs it and plays until the turn passes (many games, each slow);
- a "slow players" thread makes TIMEOUTS_PER_MINUTE other games due (their deadline set
  into the past, the version recorded), so the beat's deadline sweep plays them (P24);
- every process's memory (RSS and anonymous RSS, from /proc) is sampled each minute.

Then it stops the clients, waits for the queue to drain, and checks: every timeout made
due was played exactly once (an automatic move with the recorded version + 1) and how
late; the emails the moves should have caused (derived from the move log: a turn email
when the turn passed to the other player, an automatic-move email per timeout, two
game-over emails per finished game) against the outbox rows and the sink's count; memory
at start and end. Drops the database and stops everything at the end, also on Ctrl-C.
See BENCHMARKS.md ("Soak"). Not a test: it prints, it asserts nothing about time.
"""

import argparse
import contextlib
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# The database helpers of the HTTP benchmark: create, migrate, set up Django, drop.
from bench import api as bench_api  # noqa: E402

BenchError = bench_api.BenchError

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/piratz_bench_soak"
CELERY = str(Path(sys.executable).parent / "celery")


# --- Processes --------------------------------------------------------------------------------


class Child:
    """A child process in its own session (so a killpg reaches only it and its children)."""

    def __init__(self, name: str, command: list[str], env: dict, log: Path):
        self.name, self.log = name, log
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def pids(self) -> list[int]:
        """The live processes of its group (the main process and, e.g., its pool)."""
        group = self.process.pid
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[2]) == group:
                found.append(int(entry))
        return sorted(found)

    def alive(self) -> bool:
        return self.process.poll() is None

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self, timeout: float = 20) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=timeout)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)  # whatever outlived the main process
        self.process.wait(timeout=10)


def start_redis(port: int, folder: Path) -> Child:
    redis = Child(
        "redis",
        [shutil.which("redis-server") or "redis-server", "--port", str(port), "--bind"]
        + ["127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(folder)],
        dict(os.environ),
        folder / "redis.log",
    )
    bench_api_wait(lambda: _redis_ping(port), 10, "redis-server")
    return redis


def _redis_ping(port: int) -> bool:
    import redis

    try:
        return redis.Redis(host="127.0.0.1", port=port).ping()
    except redis.ConnectionError:
        return False


def bench_api_wait(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise BenchError(f"{what} did not come up within {timeout:.0f} s")


def memory_kb(pid: int) -> tuple[int, int]:
    """(VmRSS, RssAnon) of ``pid`` in kB; (0, 0) once it has ended."""
    values = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "RssAnon"):
                values[key] = int(rest.split()[0])
    except OSError:
        return 0, 0
    return values.get("VmRSS", 0), values.get("RssAnon", 0)


def memory_sample(children: list[Child]) -> dict[str, tuple[int, int]]:
    """Memory of every process we started, by a stable label (``worker-1 pid 123``)."""
    sample = {}
    for child in children:
        for number, pid in enumerate(child.pids()):
            sample[f"{child.name}[{number}] pid {pid}"] = memory_kb(pid)
    sample[f"this driver pid {os.getpid()}"] = memory_kb(os.getpid())
    return sample


# --- Data -------------------------------------------------------------------------------------


def make_users(count: int) -> list[tuple[object, str]]:
    from accounts.models import ApiToken, User

    users = []
    for number in range(count):
        user = User.objects.create_user(f"soak-{number}@bench.invalid")
        users.append((user, ApiToken.issue(user)))
    return users


def make_games(users, count: int) -> list[tuple[str, tuple[str, str], tuple[int, int]]]:
    """``count`` active two-player games: one through the actions, the rest copies of it.

    Each copy gets its own pair of players (round robin over ``users``), every other
    column copied (the same deal), deadlines spread 1-72 h ahead. Returns each game's id,
    its seats' API keys and user ids.
    """
    from django.utils import timezone

    from games import actions
    from games.models import Game, Seat

    (first, _), (second, _) = users[0], users[1]
    template = actions.do_create_game(first, [first.email, second.email])
    actions.do_accept_invitation(template.id, second)
    template.refresh_from_db()
    fields = [f.attname for f in Game._meta.concrete_fields if f.attname != "id"]
    seat_fields = [f.attname for f in Seat._meta.concrete_fields if f.attname != "id"]
    seats = list(Seat.objects.filter(game_id=template.id).order_by("seat"))
    now = timezone.now()
    made = [(str(template.id), (users[0][1], users[1][1]), (first.id, second.id))]
    games, new_seats = [], []
    for number in range(1, count):
        a, b = (2 * number) % len(users), (2 * number + 1) % len(users)
        game = Game(
            id=uuid.uuid4(),
            **{
                **{f: getattr(template, f) for f in fields},
                "deadline": now + timedelta(hours=1, seconds=number * 127 % 255_600),
            },
        )
        games.append(game)
        for seat, user_index in zip(seats, (a, b), strict=True):
            new_seats.append(
                Seat(
                    **{
                        **{f: getattr(seat, f) for f in seat_fields},
                        "game_id": game.id,
                        "user_id": users[user_index][0].id,
                    }
                )
            )
        made.append((str(game.id), (users[a][1], users[b][1]), (users[a][0].id, users[b][0].id)))
    Game.objects.bulk_create(games, batch_size=1000)
    Seat.objects.bulk_create(new_seats, batch_size=2000)
    return made


# --- Load -------------------------------------------------------------------------------------


class Players(threading.Thread):
    """Plays random games of ``games`` over HTTP, one turn at a time, until ``stop``."""

    def __init__(self, games, port, seed, pause, stop, counts: Counter, lock):
        super().__init__(daemon=True)
        self.games, self.port, self.pause, self.stop = games, port, pause, stop
        self.rng = random.Random(seed)
        self.counts, self.lock = counts, lock

    def run(self) -> None:
        api = bench_api.ApiConnection(self.port)
        try:
            while not self.stop.is_set():
                self.play_turn(api, self.rng.choice(self.games))
                self.stop.wait(self.pause)
        finally:
            api.close()

    def count(self, key: str) -> None:
        with self.lock:
            self.counts[key] += 1

    def play_turn(self, api, game) -> None:
        game_id, keys, _ = game
        detail = f"/api/games/{game_id}/"
        status, body, _ = api.request("GET", detail, keys[0])
        self.count(f"GET {status}")
        if status != 200 or body["status"] != "active":
            return
        mover = body["state"]["current_seat"]
        if mover != 0:
            status, body, _ = api.request("GET", detail, keys[mover])
            self.count(f"GET {status}")
            if status != 200:
                return
        while body["status"] == "active" and body["state"]["current_seat"] == mover:
            action = bench_api.choose_action(body["state"]["legal_actions"], self.rng, 0.7)
            status, answer, _ = api.request(
                "POST", f"{detail}moves/", keys[mover], {"version": body["version"], **action}
            )
            self.count(f"POST {status} {(answer or {}).get('code', '')}".strip())
            if status != 200:  # 409: two client threads picked the same game at once
                return  # a 409 would mean the sweep got there first: not in this design
            body = answer


def make_due(game_ids: list[str], count: int) -> list[tuple[str, int]]:
    """Set ``count`` of these games' deadlines into the past (those not due already).

    Returns (game id, version) of each: its automatic move must be number version + 1.
    """
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_game SET deadline = now() - interval '1 second'"
            " WHERE id IN (SELECT id FROM games_game WHERE status = 'active'"
            " AND deadline > now() AND id = ANY(%s::uuid[]) ORDER BY random() LIMIT %s)"
            " RETURNING id, version",
            [game_ids, count],
        )
        return [(str(row[0]), row[1]) for row in cursor.fetchall()]


class SlowPlayers(threading.Thread):
    """Every ``every`` seconds, ``per_tick`` of ``games`` run out of time."""

    def __init__(self, games, per_tick, every, stop, made_due: list):
        super().__init__(daemon=True)
        self.game_ids = [game_id for game_id, _, _ in games]
        self.per_tick, self.every, self.stop, self.made_due = per_tick, every, stop, made_due

    def run(self) -> None:
        from django.db import connection

        try:
            while not self.stop.wait(self.every):
                due = make_due(self.game_ids, self.per_tick)
                now = time.time()
                self.made_due.extend((game_id, version, now) for game_id, version in due)
        finally:
            connection.close()


# --- Checks -----------------------------------------------------------------------------------


def expected_emails(since) -> Counter:
    """The emails the moves made since ``since`` should have queued, from the move log."""
    from games.models import Game, GameStatus, Move

    expected = Counter()
    moves = Move.objects.filter(at__gte=since).order_by("game_id", "number")
    by_game: dict = {}
    for move in moves.values("game_id", "number", "seat", "automatic"):
        by_game.setdefault(move["game_id"], []).append(move)
    games = Game.objects.in_bulk(list(by_game))
    for game_id, logged in by_game.items():
        game = games[game_id]
        for move, following in zip(logged, [*logged[1:], None], strict=True):
            if move["automatic"]:
                expected["auto_moved"] += 1
            if following is not None:
                handed_on = following["seat"] != move["seat"]
            else:
                handed_on = game.status == GameStatus.ACTIVE and game.current_seat != move["seat"]
            expected["your_turn"] += handed_on
        if game.status == GameStatus.FINISHED:
            expected["game_over"] += 2
        elif game.status == GameStatus.ABORTED:  # P25: a whole round of timeouts
            expected["game_ended"] += 2
    return expected


def check_timeouts(made_due: list) -> dict:
    """Each (game, version) made due: played once, automatically, as move version + 1?"""
    from games.models import Move

    played, missing, lateness = 0, [], []
    for game_id, version, when in made_due:
        move = Move.objects.filter(game_id=game_id, number=version + 1).first()
        if move is not None and move.automatic:
            played += 1
            lateness.append(move.at.timestamp() - when)
        else:
            missing.append((game_id, version))
    return {"played": played, "missing": missing, "lateness": lateness}


def outbox_counts(since) -> tuple[Counter, Counter]:
    from notifications.models import OutboundEmail

    by_template, by_status = Counter(), Counter()
    for template, status in OutboundEmail.objects.filter(created_at__gte=since).values_list(
        "template", "status"
    ):
        by_template[template] += 1
        by_status[status] += 1
    return by_template, by_status


# --- Main -------------------------------------------------------------------------------------


def print_memory(label: str, sample: dict) -> None:
    print(f"memory, {label}:")
    for name, (rss, anon) in sample.items():
        print(f"  {name:34} RSS {rss / 1024:7.1f} MB, anonymous {anon / 1024:7.1f} MB")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--users", type=int, default=200, help="players the games share")
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument(
        "--timeout-games",
        type=int,
        default=500,
        help="games that time out (the rest are played over HTTP)",
    )
    parser.add_argument("--timeouts-per-minute", type=int, default=60)
    parser.add_argument("--clients", type=int, default=4, help="client threads playing")
    parser.add_argument("--pause", type=float, default=0.2, help="seconds between turns")
    parser.add_argument("--sweep-seconds", type=int, default=15, help="SWEEP_SECONDS")
    parser.add_argument("--gunicorn-workers", type=int, default=2)
    parser.add_argument("--celery-workers", type=int, default=1, help="worker processes")
    parser.add_argument("--celery-concurrency", type=int, default=2)
    parser.add_argument("--drain-seconds", type=float, default=180)
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not 0 < args.timeout_games < args.games:
        parser.error("--timeout-games must be between 1 and --games - 1")

    signal.signal(signal.SIGTERM, bench_api._interrupt)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    url, name = bench_api.checked_database_url(args.database_url)
    server_version = bench_api.recreate_database(url, name)
    folder = Path(tempfile.mkdtemp(prefix="piratz-soak-"))
    children: list[Child] = []
    try:
        return run(args, url, name, server_version, folder, children)
    except BenchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        for child in reversed(children):
            child.stop()
        from django.conf import settings

        if settings.configured:
            from django.db import connections

            connections.close_all()
        with bench_api.admin_connection(url) as connection:
            bench_api.drop_database(connection, name)
        shutil.rmtree(folder, ignore_errors=True)


def run(args, url, name, server_version, folder: Path, children: list) -> int:
    redis_port = bench_api.servers.free_port()
    redis_url = f"redis://127.0.0.1:{redis_port}/0"
    children.append(start_redis(redis_port, folder))
    env = {
        **bench_api.django_environment(url, redis_url),
        "DJANGO_SETTINGS_MODULE": "piratz_site.settings",  # production's, no bench URLs
        "SWEEP_SECONDS": str(args.sweep_seconds),
        "PYTHONUNBUFFERED": "1",
        "LOG_LEVEL": "WARNING",
    }
    print(
        f"machine: {os.cpu_count()} cores ({bench_api.cpu_model()}), Python "
        f"{sys.version.split()[0]}, PostgreSQL {server_version}; load average "
        f"{', '.join(f'{v:.2f}' for v in os.getloadavg())}; "
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    )
    print(f"parameters: {vars(args)}")
    bench_api.migrate(env, timeout=300)
    bench_api.setup_django(env)
    from tests.processes import SmtpSink  # aiosmtpd (the module needs Django set up)

    sink = SmtpSink().start()
    env.update(  # for the worker, which sends them (this process sends none)
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(sink.port),
        EMAIL_TIMEOUT="10",
    )
    from django.utils import timezone

    started = time.monotonic()
    users = make_users(args.users)
    games = make_games(users, args.games)
    print(f"setup: {args.users} players, {len(games)} games in {time.monotonic() - started:.1f} s")
    rng = random.Random(args.seed)
    rng.shuffle(games)
    timing_out, played = games[: args.timeout_games], games[args.timeout_games :]

    server = bench_api.Gunicorn(
        env, workers=args.gunicorn_workers, threads=2, worker_class="gthread"
    )
    server.start()
    children.append(_AsChild("gunicorn", server))
    for number in range(args.celery_workers):
        children.append(
            Child(
                f"celery-worker-{number + 1}",
                [CELERY, "-A", "piratz_site", "worker", "-n", f"soak{number}@%h"]
                + ["-c", str(args.celery_concurrency), "--loglevel", "WARNING"]
                + ["--without-gossip", "--without-mingle", "--without-heartbeat"],
                env,
                folder / f"worker-{number}.log",
            )
        )
    children.append(
        Child(
            "celery-beat",
            [CELERY, "-A", "piratz_site", "beat", "--schedule", str(folder / "beat-schedule")]
            + ["--loglevel", "WARNING"],
            env,
            folder / "beat.log",
        )
    )
    since = timezone.now()
    stop = threading.Event()
    counts, lock, made_due = Counter(), threading.Lock(), []
    per_tick = max(1, round(args.timeouts_per_minute / 6))
    threads = [
        Players(played, server.port, args.seed * 1000 + n, args.pause, stop, counts, lock)
        for n in range(args.clients)
    ] + [SlowPlayers(timing_out, per_tick, 10, stop, made_due)]
    for thread in threads:
        thread.start()
    load_start = time.monotonic()
    time.sleep(30)  # every process has served, imported and connected: the start sample
    samples = [(0.5, memory_sample(children))]
    print_memory("start (after 30 s of load)", samples[0][1])
    end = load_start + args.minutes * 60
    while time.monotonic() < end:
        time.sleep(min(60, max(0.0, end - time.monotonic())))
        minute = (time.monotonic() - load_start) / 60
        samples.append((minute, memory_sample(children)))
        total = sum(rss for rss, _ in samples[-1][1].values()) / 1024
        with lock:
            requests = dict(counts)
        print(
            f"  minute {minute:4.1f}: RSS total {total:.0f} MB; load average "
            f"{os.getloadavg()[0]:.2f}; requests {requests}; timeouts made due {len(made_due)}",
            flush=True,
        )
        for child in children:
            if not child.alive():
                raise BenchError(f"{child.name} died:\n{child.output()[-3000:]}")
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    print_memory(f"end (minute {args.minutes:g})", samples[-1][1])
    print("memory growth, start to end (RSS / anonymous):")
    first, last = samples[0][1], samples[-1][1]
    for key in first:
        if key in last:
            print(
                f"  {key:34} {(last[key][0] - first[key][0]) / 1024:+7.1f} MB / "
                f"{(last[key][1] - first[key][1]) / 1024:+7.1f} MB"
            )

    # Drain: the timeouts made due in the last ticks and the emails still queued.
    from notifications.models import OutboundEmail

    drain_end = time.monotonic() + args.drain_seconds
    while time.monotonic() < drain_end:
        pending = OutboundEmail.objects.exclude(status__in=["sent", "failed"]).count()
        timeouts = check_timeouts(made_due)
        if pending == 0 and not timeouts["missing"]:
            break
        time.sleep(2)
    drained = time.monotonic() - (drain_end - args.drain_seconds)
    timeouts = check_timeouts(made_due)
    expected = expected_emails(since)
    queued, statuses = outbox_counts(since)
    with lock:
        requests = dict(counts)
    moves = requests.get("POST 200", 0)
    print(f"\nafter the load: drained in {drained:.0f} s")
    print(f"requests: {requests} ({moves / (args.minutes * 60):.1f} player moves/s)")
    late = sorted(timeouts["lateness"])
    print(
        f"timeouts: made due {len(made_due)}, played {timeouts['played']} "
        f"(missing {len(timeouts['missing'])}: {timeouts['missing'][:5]}); "
        + (
            f"played after its deadline: median {late[len(late) // 2]:.1f} s, "
            f"max {late[-1]:.1f} s (SWEEP_SECONDS={args.sweep_seconds})"
            if late
            else "none played"
        )
    )
    print(f"emails expected from the move log: {dict(expected)}")
    print(f"emails queued in the outbox:        {dict(queued)}")
    # The sink also got the emails of the set-up (the first game's invitation and start).
    sent_ever = OutboundEmail.objects.filter(status="sent").count()
    print(
        f"outbox status: {dict(statuses)}; received by the SMTP sink: {sink.count()} "
        f"(sent since the set-up, all rows: {sent_ever})"
    )
    sink.stop()
    ok = (
        not timeouts["missing"]
        and queued == expected
        and statuses.get("sent", 0) == sum(queued.values())
        and sent_ever == sink.count()
    )
    print("checks: " + ("all as expected" if ok else "MISMATCH (see above)"))
    return 0 if ok else 1


class _AsChild(Child):
    """bench/api.py's Gunicorn, seen as a Child for memory samples and stopping."""

    def __init__(self, name, server):  # no super(): the process exists already
        self.name, self.server, self.process = name, server, server.process

    def output(self) -> str:
        return self.server.log_tail()

    def stop(self, timeout: float = 20) -> None:
        self.server.stop()


if __name__ == "__main__":
    sys.exit(main())
