"""HTTP benchmark of the games API: gunicorn on a fresh PostgreSQL, games played concurrently.

Steps: (re)create the bench database, migrate, create players, API keys and active games
in-process, count SQL queries per request in-process (Django test client), start gunicorn,
play every game to its end over real HTTP on 127.0.0.1 from a thread pool (one thread
drives one game, so there are no genuine races), print the numbers, stop gunicorn and drop
the database. See BENCHMARKS.md ("API") for results. Only the standard library speaks HTTP.
"""

import argparse
import http.client
import json
import os
import platform
import random
import re
import secrets
import signal
import statistics
import subprocess
import sys
import threading
import time
import warnings
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib.metadata import version as package_version
from math import ceil
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.kinds.piratz.rules.bots import random_action as choose_action  # noqa: E402  (pure: needs no Django settings)
from tests import servers  # noqa: E402  (standard library only)

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/piratz_bench"
HOST = "127.0.0.1"  # the benchmark only ever talks to the gunicorn it started
# Bounds so that a bug (a game that never ends, a server that keeps refusing) cannot spin.
MAX_MOVES_PER_GAME = 5_000
MAX_ERRORS_PER_GAME = 20
REQUEST_TIMEOUT = 30


class BenchError(RuntimeError):
    """The benchmark cannot run; the message says why and what to check."""


# --- The bench database ----------------------------------------------------------------------


def checked_database_url(url: str) -> tuple[str, str]:
    """The URL and database name, refusing anything but a plain, droppable PostgreSQL db.

    The database is dropped and recreated, so names of databases that other things rely
    on (``postgres``, templates) are refused, and the name must be a plain identifier.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        raise BenchError(f"--database-url must be a postgres:// URL, not {url!r}")
    name = parts.path.strip("/")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,62}", name):
        raise BenchError(f"the database name {name!r} must be a plain identifier")
    if name in ("postgres", "template0", "template1"):
        raise BenchError(f"refusing to drop and recreate the {name!r} database")
    return url, name


def admin_connection(url: str):
    """An autocommit connection to the server's ``postgres`` database (CREATE/DROP DATABASE)."""
    import psycopg

    parts = urlsplit(url)
    admin_url = urlunsplit(parts._replace(path="/postgres"))
    try:
        return psycopg.connect(admin_url, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as error:
        where = f"{parts.hostname or 'localhost'}:{parts.port or 5432}"
        raise BenchError(
            f"PostgreSQL is not reachable at {where} as {parts.username or 'the current user'}"
            f" (is it running? is --database-url right?):\n{error}"
        ) from None


def recreate_database(url: str, name: str) -> str:
    """Drop and create the bench database; return the server's version string."""
    from psycopg import sql

    with admin_connection(url) as connection:
        server_version = connection.execute("SHOW server_version").fetchone()[0]
        drop_database(connection, name)
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return server_version


def drop_database(connection, name: str) -> None:
    from psycopg import sql

    # FORCE (PostgreSQL 13+) ends sessions a killed run may have left behind.
    force = sql.SQL(" WITH (FORCE)") if connection.info.server_version >= 130000 else sql.SQL("")
    connection.execute(sql.SQL("DROP DATABASE IF EXISTS {}{}").format(sql.Identifier(name), force))


# --- Django in this process -------------------------------------------------------------------


def django_environment(database_url: str, cache_url: str = "") -> dict[str, str]:
    """The environment for gunicorn, ``manage.py`` and the in-process Django alike.

    ``bench.settings``: the project's settings plus the bare endpoint's URL.
    """
    secret = os.environ.get("SECRET_KEY", "")
    if len(secret) < 32 or secret.startswith("insecure-dev-key"):
        secret = secrets.token_urlsafe(50)
    inherited = dict(os.environ)
    return {
        **inherited,
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "DEBUG": "false",
        # As in production: throttle counters and the broker on Redis. No worker runs, so
        # the send tasks published on commit stay queued; main() empties the db at the end.
        "CACHE_URL": cache_url,
        "CELERY_BROKER_URL": cache_url or "memory://",
        "SECRET_KEY": secret,
        "DATABASE_URL": database_url,
        "ALLOWED_HOSTS": f"{HOST},localhost",
        "EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend",
        # The throttle stays on (its cost is real) but must never refuse the benchmark.
        "API_THROTTLE_USER": "1000000/min",
        "API_THROTTLE_ANON": "1000000/min",
        "LOG_LEVEL": "ERROR",
        # WhiteNoise warns in every worker that collectstatic has not run; the API needs none.
        "PYTHONWARNINGS": "ignore:No directory at",
    }


def flush_redis(url: str) -> None:
    """Empty the bench's Redis database (its throttle counters and unconsumed tasks)."""
    import redis

    redis.Redis.from_url(url).flushdb()


def migrate(env: dict[str, str], timeout: float) -> None:
    command = [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"]
    completed = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    if completed.returncode != 0:
        raise BenchError(f"manage.py migrate failed:\n{completed.stderr[-3000:]}")


def setup_django(env: dict[str, str]) -> None:
    os.environ.update(env)
    # WhiteNoise warns that collectstatic has not run; the API serves no static files.
    warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
    import django

    django.setup()


@dataclass(frozen=True)
class FreshDjango:
    """What ``django_on_fresh_database`` set up: the environment for the processes the
    bench starts (``manage.py``, servers) and the PostgreSQL server's version."""

    env: dict[str, str]
    server_version: str


@contextmanager
def django_on_fresh_database(database_url: str, cache_url: str = "") -> Iterator[FreshDjango]:
    """Django in this process on the bench database ``database_url``, dropped and created
    afresh and migrated, with the cache and broker on ``cache_url`` (emptied before and
    after; empty: the database cache table). The database is dropped at the end, whatever
    happened. Raises ``BenchError`` for a URL it must not drop or a server it cannot reach."""
    url, name = checked_database_url(database_url)
    server_version = recreate_database(url, name)
    try:
        if cache_url:
            flush_redis(cache_url)
        env = django_environment(url, cache_url)
        migrate(env, timeout=300)
        setup_django(env)
        if not cache_url:
            from django.core.management import call_command

            call_command("createcachetable", verbosity=0)
        yield FreshDjango(env, server_version)
    finally:
        from django.db import connections

        connections.close_all()
        if cache_url:
            flush_redis(cache_url)
        with admin_connection(url) as connection:
            drop_database(connection, name)


@dataclass(frozen=True)
class BenchGame:
    """An active game and each seat's API key (index = seat)."""

    id: str
    keys: tuple[str, ...]


def create_games(count: int, players: int, label: str) -> list[BenchGame]:
    """``count`` active games, each with its own ``players`` new users (no daily caps hit)."""
    from accounts.models import ApiToken, User
    from games import actions

    games = []
    for number in range(count):
        users = [
            User.objects.create_user(f"{label}-{number}-{seat}@bench.invalid")
            for seat in range(players)
        ]
        game = actions.do_create_game(users[0], [user.email for user in users])
        for user in users[1:]:
            actions.do_accept_invitation(game.id, user)
        games.append(BenchGame(str(game.id), tuple(ApiToken.issue(user) for user in users)))
    return games


# --- In-process measurement: SQL queries and where the time goes ------------------------------


class QueryRecorder:
    """A ``connection.execute_wrapper``: counts and times every statement sent to the DB."""

    def __init__(self):
        self.statements: list[tuple[str, float]] = []

    def __call__(self, execute, sql, params, many, context):
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.statements.append((sql, time.perf_counter() - start))

    def take(self) -> list[tuple[str, float]]:
        taken, self.statements = self.statements, []
        return taken


class EngineTimer:
    """Times the rules engine's entry points the service and serializer call, while active.

    The service reaches the engine as ``game.rules.<name>`` (an attribute lookup on the
    module at call time), so replacing the module attributes sees every call.
    """

    NAMES = ("load", "apply", "dump", "view", "move_effects")

    def __init__(self, rules):
        self.rules = rules
        self.recording = False  # set around the requests whose engine time is wanted
        self.seconds = Counter()
        self.calls = Counter()
        self._originals = {}

    def __enter__(self):
        for name in self.NAMES:
            original = getattr(self.rules, name)
            self._originals[name] = original
            setattr(self.rules, name, self._timed(name, original))
        return self

    def __exit__(self, *exc_info):
        for name, original in self._originals.items():
            setattr(self.rules, name, original)

    def _timed(self, name, function):
        def timed(*args, **kwargs):
            if not self.recording:
                return function(*args, **kwargs)
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[name] += time.perf_counter() - start
                self.calls[name] += 1

        return timed


@dataclass
class InProcessReport:
    move_queries: list[int] = field(default_factory=list)
    detail_queries: list[int] = field(default_factory=list)
    list_queries: int = 0
    move_seconds: list[float] = field(default_factory=list)
    move_db_seconds: list[float] = field(default_factory=list)
    engine_seconds: Counter = field(default_factory=Counter)
    engine_calls: Counter = field(default_factory=Counter)
    typical_move_sql: list[str] = field(default_factory=list)
    state_bytes: int = 0
    response_bytes: list[int] = field(default_factory=list)
    # CPU (this thread's) per write, project and bare interleaved move by move: a measure
    # that other work on the machine skews far less than requests per second do.
    move_cpu: list[float] = field(default_factory=list)  # a move POST and the GET it causes
    post_cpu: list[float] = field(default_factory=list)  # the move POST alone
    bare_cpu: list[float] = field(default_factory=list)
    profiled: bool = False  # cProfile slowed the moves (not the bare writes) down
    games: int = 1

    def absorb(self, other: "InProcessReport") -> None:
        """Add ``other``'s per-move samples (another game) to this report's."""
        for name in (
            "move_queries",
            "detail_queries",
            "move_seconds",
            "move_db_seconds",
            "response_bytes",
            "move_cpu",
            "post_cpu",
            "bare_cpu",
        ):
            getattr(self, name).extend(getattr(other, name))
        self.engine_seconds += other.engine_seconds
        self.engine_calls += other.engine_calls
        self.games += other.games


def move_post(client, path: str, version: int, action: dict):
    """A project move over the test client (named so that ``bench/profile_shares.py`` can
    tell its samples from the GET's and the bare write's)."""
    return client.post(path, {"version": version, **action}, content_type="application/json")


def next_player_get(client, path: str):
    """The next player's game GET over the test client (named, as ``move_post``)."""
    return client.get(path)


def measure_in_process(
    game: BenchGame,
    rng: random.Random,
    reveal_bias: float,
    profile: bool,
    bare_game: BenchGame | None = None,
):
    """Play ``game`` to its end through Django's test client, recording queries and time.

    Each player first makes one GET so that the once-an-hour "key last used" UPDATE is
    not counted against a move. With ``bare_game``, each move is followed by one bare
    write (``bench.bare``) on it, and both are timed in CPU seconds of this thread
    (``time.thread_time``): the interleaved CPU ratio. Returns an ``InProcessReport``.
    """
    from django.db import connection
    from django.test import Client

    from games.kinds.piratz import rules as piratz
    from games.models import Game

    clients = [
        Client(SERVER_NAME=HOST, headers={"Authorization": f"Token {key}"}) for key in game.keys
    ]
    for client in clients:
        client.get("/api/games/")
    report = InProcessReport(profiled=profile)
    recorder = QueryRecorder()
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
    detail = f"/api/games/{game.id}/"
    bare, bare_version = None, 0
    if bare_game is not None:
        bare_client = Client(
            SERVER_NAME=HOST, headers={"Authorization": f"Token {bare_game.keys[0]}"}
        )
        bare_path = f"/bench/bare-move/{bare_game.id}/"

        def bare_write(version: int) -> int:  # named for bench/profile_shares.py
            cpu_start = time.thread_time()
            answer = bare_client.post(
                bare_path, {"version": version}, content_type="application/json"
            )
            report.bare_cpu.append(time.thread_time() - cpu_start)
            if answer.status_code != 200:
                raise BenchError(f"in-process bare write refused: {answer.status_code}")
            return answer.json()["version"]

        bare = bare_write
        # Its first request records the key's use (once an hour): not counted.
        bare_version = bare(Game.objects.get(id=bare_game.id).version)
        report.bare_cpu.clear()
    with connection.execute_wrapper(recorder), EngineTimer(piratz) as engine:
        body = clients[0].get(detail).json()
        recorder.take()
        mover = body["state"]["current_seat"]
        while body["status"] == "active" and len(report.move_queries) < MAX_MOVES_PER_GAME:
            action = choose_action(body["state"]["legal_actions"], rng, reveal_bias)
            engine.recording = True
            if profiler:
                profiler.enable()
            start, cpu_start = time.perf_counter(), time.thread_time()
            response = move_post(clients[mover], f"{detail}moves/", body["version"], action)
            report.move_seconds.append(time.perf_counter() - start)
            move_cpu = time.thread_time() - cpu_start
            report.post_cpu.append(move_cpu)
            if profiler:
                profiler.disable()
            engine.recording = False
            statements = recorder.take()
            if response.status_code != 200:
                raise BenchError(f"in-process move refused: {response.status_code}")
            report.move_queries.append(len(statements))
            report.move_db_seconds.append(sum(seconds for _, seconds in statements))
            report.response_bytes.append(len(response.content))
            if not report.typical_move_sql and action.get("bury") is not None:
                report.typical_move_sql = [sql for sql, _ in statements]
            body = response.json()
            following = body["state"]["current_seat"]
            if body["status"] == "active" and following != mover:
                mover = following
                cpu_start = time.thread_time()
                body = next_player_get(clients[mover], detail).json()
                move_cpu += time.thread_time() - cpu_start
                report.detail_queries.append(len(recorder.take()))
            report.move_cpu.append(move_cpu)
            if bare:
                bare_version = bare(bare_version)
                recorder.take()
        clients[0].get("/api/games/")
        report.list_queries = len(recorder.take())
    report.engine_seconds, report.engine_calls = engine.seconds, engine.calls
    report.state_bytes = len(json.dumps(Game.objects.get(id=game.id).state))
    if profiler:
        import pstats

        stats = pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative")
        print("\ncProfile of the in-process move POSTs (top 25 by cumulative time):")
        stats.print_stats(25)
        print("the project's own functions among them (top 40 by cumulative time):")
        project = re.escape(str(ROOT)) + r"/(?!\.venv)"
        stats.print_stats(project, 40)
    return report


# --- gunicorn ---------------------------------------------------------------------------------


class Gunicorn(servers.Gunicorn):
    """The tests' gunicorn helper (tests/servers.py), failing with ``BenchError``."""

    failure = BenchError


class HeldStreams:
    """``--streams-per-seat``: each bench game's table stream open that many times per seat
    while the phases play, so that every move's news goes out to open streams as in
    production (after commit, through Redis publish/subscribe, to a uvicorn process). The
    streams are read by ``bench/streams.py --hold`` in a process of its own."""

    def __init__(self, env: dict[str, str], games: list[BenchGame], per_seat: int):
        self.env, self.games, self.per_seat = env, games, per_seat
        self.uvicorn: servers.Uvicorn | None = None
        self.holder: subprocess.Popen | None = None
        self.cpu_before: dict[str, float] = {}
        self.reader_cpu_before: dict[str, float] = {}

    def start(self) -> str:
        """Open the streams; returns the holder's ``open <n> refused <m>`` line."""
        from django.test import Client

        from games.models import Seat

        lines = []
        for game in self.games:
            for seat in Seat.objects.filter(game_id=game.id).select_related("user"):
                client = Client()
                client.force_login(seat.user)
                lines += [f"{game.id} {client.cookies['sessionid'].value}"] * self.per_seat
        self.uvicorn = servers.Uvicorn(self.env, limit_concurrency=len(lines) + 100)
        self.uvicorn.failure = BenchError
        self.uvicorn.start()
        command = [sys.executable, str(ROOT / "bench" / "streams.py"), "--hold"]
        self.holder = subprocess.Popen(
            [*command, str(self.uvicorn.port)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        assert self.holder.stdin is not None and self.holder.stdout is not None
        self.holder.stdin.write("\n".join(lines) + "\ngo\n")
        self.holder.stdin.flush()
        opened = self.holder.stdout.readline().strip()
        assert self.uvicorn.process is not None
        self.cpu_before = group_cpu_seconds(self.uvicorn.process.pid)
        self.reader_cpu_before = group_cpu_seconds(self.holder.pid)
        return opened

    def stop(self) -> tuple[str, float, float]:
        """Close the streams: the holder's ``events <k>`` line, and the CPU seconds used
        since the streams were open by uvicorn (the service) and by the holder (the
        readers: browsers elsewhere in production, on this machine's cores here)."""
        cpu = reader_cpu = 0.0
        if self.uvicorn is not None and self.uvicorn.process is not None:
            cpu = cpu_used(self.cpu_before, group_cpu_seconds(self.uvicorn.process.pid))
        said = ""
        if self.holder is not None:
            reader_cpu = cpu_used(self.reader_cpu_before, group_cpu_seconds(self.holder.pid))
            assert self.holder.stdin is not None and self.holder.stdout is not None
            self.holder.stdin.close()
            said = self.holder.stdout.readline().strip()
            try:
                self.holder.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.holder.pid, signal.SIGKILL)
                self.holder.wait(timeout=5)
        if self.uvicorn is not None:
            self.uvicorn.stop()
        return said, cpu, reader_cpu


# --- Playing over HTTP ------------------------------------------------------------------------


class ApiConnection:
    """One keep-alive HTTP connection to the bench server, used by one thread."""

    def __init__(self, port: int):
        self.port = port
        self.connection = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)

    def request(self, method: str, path: str, key: str, body: dict | None = None):
        """Send one request; return (status, parsed JSON body, seconds taken).

        A keep-alive connection the server has closed is reopened and the request sent
        once more; for a move that is safe, as the service answers a repeated move
        (same version and action) with the game instead of playing it twice.
        """
        payload = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Token {key}", "Accept": "application/json"}
        if payload is not None:
            headers["Content-Type"] = "application/json"
        for attempt in (1, 2):
            start = time.perf_counter()
            try:
                self.connection.request(method, path, body=payload, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
            except (http.client.HTTPException, ConnectionError):
                self.connection.close()
                self.connection = http.client.HTTPConnection(
                    HOST, self.port, timeout=REQUEST_TIMEOUT
                )
                if attempt == 2:
                    raise
                continue
            seconds = time.perf_counter() - start
            parsed = json.loads(data) if data else None
            return response.status, parsed, seconds
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.connection.close()


@dataclass
class PhaseRun:
    """What one client thread did in one phase."""

    moves: int = 0
    finished: int = 0
    post_seconds: list[float] = field(default_factory=list)
    get_seconds: list[float] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)


class ProjectPlayer:
    """One client thread's games, played move by move as real clients would.

    The player to move POSTs each move built from the game they last saw (the POST's
    answer is the game as they now see it, so the mover needs no GET for their next
    move). When the turn passes to another player, that player is another person with
    another client and has not seen the game since their last turn: they GET it once
    (their own view: legal actions, what blind mode lets them see). Those GETs are part
    of what a move costs the server and are counted with the moves. A game played to its
    end is replaced by the next one from ``games``; a game is kept across phases.
    """

    def __init__(self, games, port: int, seed: int, reveal_bias: float):
        self.games, self.reveal_bias = games, reveal_bias
        self.rng = random.Random(seed)
        self.api = ApiConnection(port)
        self.game = None
        self.body = None
        self.mover = 0
        self.exhausted = False

    def _fetch(self, run: PhaseRun):
        status, body, seconds = self.api.request(
            "GET", f"/api/games/{self.game.id}/", self.game.keys[self.mover]
        )
        run.get_seconds.append(seconds)
        if status != 200:
            run.errors[f"GET {status}"] += 1
            return None
        return body

    def _next_game(self, run: PhaseRun) -> bool:
        try:
            self.game = self.games.pop()
        except IndexError:
            self.exhausted = True
            return False
        self.mover = 0  # rules P5: seat 0 starts; the answer says who is really to move
        self.body = self._fetch(run)
        if self.body is not None and self.body["state"]["current_seat"] != self.mover:
            self.mover = self.body["state"]["current_seat"]
            self.body = self._fetch(run)
        return self.body is not None

    def play(self, until: float, stop: threading.Event) -> PhaseRun:
        """Play until ``until`` (``time.monotonic``), ``stop``, or too many errors."""
        run = PhaseRun()
        while time.monotonic() < until and not stop.is_set():
            if sum(run.errors.values()) >= MAX_ERRORS_PER_GAME:
                break
            if self.body is None or self.body["status"] != "active":
                if self.body is not None and self.body["status"] == "finished":
                    run.finished += 1
                if not self._next_game(run):
                    break
                continue
            action = choose_action(self.body["state"]["legal_actions"], self.rng, self.reveal_bias)
            status, answer, seconds = self.api.request(
                "POST",
                f"/api/games/{self.game.id}/moves/",
                self.game.keys[self.mover],
                {"version": self.body["version"], **action},
            )
            run.post_seconds.append(seconds)
            if status != 200:
                run.errors[f"POST {status} {(answer or {}).get('code', '')}".strip()] += 1
                self.body = self._fetch(run)  # start again from the game as it now is
                if self.body is not None and self.body["status"] == "active":
                    self.mover = self.body["state"]["current_seat"]
                    self.body = self._fetch(run)
                continue
            run.moves += 1
            self.body = answer
            following = self.body["state"]["current_seat"]
            if self.body["status"] == "active" and following != self.mover:
                self.mover = following
                self.body = self._fetch(run)
        return run


class BarePlayer:
    """One client thread writing to its own game through the bare endpoint (``bench.bare``)."""

    def __init__(self, game: BenchGame, port: int):
        self.game = game
        self.api = ApiConnection(port)
        self.version = 0

    def play(self, until: float, stop: threading.Event) -> PhaseRun:
        run = PhaseRun()
        path = f"/bench/bare-move/{self.game.id}/"
        while time.monotonic() < until and not stop.is_set():
            if sum(run.errors.values()) >= MAX_ERRORS_PER_GAME:
                break
            status, answer, seconds = self.api.request(
                "POST", path, self.game.keys[0], {"version": self.version}
            )
            run.post_seconds.append(seconds)
            if status != 200:
                run.errors[f"bare POST {status} {(answer or {}).get('code', '')}".strip()] += 1
                continue
            run.moves += 1
            self.version = answer["version"]
        return run


# --- Reporting --------------------------------------------------------------------------------


def percentile(values: list[float], percent: float) -> float:
    """Nearest-rank percentile of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, ceil(percent / 100 * len(ordered)) - 1)]


def latency_line(label: str, seconds: list[float]) -> str:
    if not seconds:
        return f"{label}: none"
    ms = [value * 1000 for value in seconds]
    return (
        f"{label} latency ms (n={len(ms)}): p50 {percentile(ms, 50):.1f}, "
        f"p90 {percentile(ms, 90):.1f}, p99 {percentile(ms, 99):.1f}, max {max(ms):.1f}"
    )


def spread(values: list[int]) -> str:
    if not values:
        return "none"
    return f"min {min(values)}, median {statistics.median(values):g}, max {max(values)}"


def _cpu_seconds(wanted) -> dict[str, float]:
    """CPU seconds used so far by each live process for which ``wanted(title, stat)`` holds.

    Linux only (reads /proc; nothing elsewhere). ``stat`` is the list of /proc/PID/stat
    fields after the command name. See ``cpu_used`` for the difference of two readings.
    """
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    seconds = {}
    try:
        pids = [entry for entry in os.listdir("/proc") if entry.isdigit()]
    except OSError:
        return seconds
    for pid in pids:
        try:
            title = Path(f"/proc/{pid}/cmdline").read_bytes()
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            if wanted(title, stat):
                # utime, stime (stat fields 14, 15)
                seconds[pid] = (int(stat[11]) + int(stat[12])) / tick
        except (OSError, IndexError, ValueError):
            continue  # the process ended while we looked
    return seconds


def cpu_used(before: dict[str, float], after: dict[str, float]) -> float:
    """CPU seconds used between two readings: by the processes alive at the second one
    (new ones count in full). A process that ended in between is missing from it (its
    last part is lost: a lower bound), never a negative number."""
    return sum(used - before.get(pid, 0.0) for pid, used in after.items())


def postgres_cpu_seconds(database: str) -> dict[str, float]:
    """CPU seconds of the PostgreSQL backends serving ``database`` (one per connection)."""
    needle = f" {database} ".encode()
    return _cpu_seconds(lambda title, stat: title.startswith(b"postgres: ") and needle in title)


def group_cpu_seconds(group: int) -> dict[str, float]:
    """CPU seconds of the processes in process group ``group`` (gunicorn's session)."""
    return _cpu_seconds(lambda title, stat: int(stat[2]) == group)


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def print_in_process(report: InProcessReport) -> None:
    moves = len(report.move_queries)
    games = "one game" if report.games == 1 else f"{report.games} games"
    print(f"\nIn-process (Django test client, same database), {games} of {moves} moves:")
    print(f"  SQL queries per move POST: {spread(report.move_queries)}")
    print(f"  SQL queries per game GET:  {spread(report.detail_queries)}")
    print(f"  SQL queries per list GET:  {report.list_queries}")
    total = statistics.fmean(report.move_seconds) * 1000
    db = statistics.fmean(report.move_db_seconds) * 1000
    engine = {name: report.engine_seconds[name] / moves * 1000 for name in EngineTimer.NAMES}
    engine_total = sum(engine.values())
    print(
        f"  time per move POST, mean: {total:.2f} ms = SQL {db:.2f} ms "
        f"+ engine {engine_total:.2f} ms + Django/DRF/JSON {total - db - engine_total:.2f} ms"
    )
    if report.bare_cpu:
        project_cpu = statistics.fmean(report.move_cpu) * 1000
        bare_cpu = statistics.fmean(report.bare_cpu) * 1000
        print(
            f"  CPU per write, interleaved (thread time): project move {project_cpu:.2f} ms "
            f"(POST {statistics.fmean(report.post_cpu) * 1000:.2f} ms + its share of GETs) vs "
            f"bare {bare_cpu:.2f} ms: a move costs {project_cpu / bare_cpu:.2f} bare writes"
            + ("; cProfile slowed the moves down: run without --profile" if report.profiled else "")
        )
        print(
            f"  CPU p99: move POST {percentile(report.post_cpu, 99) * 1000:.2f} ms vs bare "
            f"{percentile(report.bare_cpu, 99) * 1000:.2f} ms; POST CPU by statements "
            "(where the tail is: the move that ends a game has the most):"
        )
        by_statements = defaultdict(list)
        for statements, cpu in zip(report.move_queries, report.post_cpu, strict=True):
            by_statements[statements].append(cpu)
        for statements, cpus in sorted(by_statements.items()):
            print(
                f"    {statements} statements: {len(cpus)} moves, median "
                f"{statistics.median(cpus) * 1000:.2f} ms, max {max(cpus) * 1000:.2f} ms"
            )
    print(
        "  engine per move POST: "
        + ", ".join(
            f"{name} {engine[name]:.3f} ms ({report.engine_calls[name] / moves:g}x)"
            for name in EngineTimer.NAMES
        )
    )
    print(
        f"  stored state: {report.state_bytes} bytes of JSON; move response: "
        f"{statistics.median(report.response_bytes):.0f} bytes (median)"
    )
    print("  statements of a move that buries a card:")
    for sql in report.typical_move_sql:
        print(f"    {sql[:150]}")


def _interrupt(signum, frame):
    # SIGTERM ends the run like Ctrl-C does, so the finally blocks stop gunicorn and
    # drop the database.
    raise KeyboardInterrupt


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=(
            "Benchmark the games API over real HTTP: a fresh PostgreSQL database, gunicorn, "
            "and GAMES games played to their end from CONCURRENCY client threads. Prints "
            "moves/s, move POST latency percentiles, errors by status, and SQL queries per "
            "request (measured in-process on one extra game)."
        )
    )
    parser.add_argument(
        "--games",
        type=int,
        default=120,
        help="games ready to be played (default 120); the rounds end before they run out",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="rounds of one project phase and one bare phase, interleaved (default 3; "
        "0: one project phase, no bare endpoint)",
    )
    parser.add_argument(
        "--phase-seconds", type=float, default=20, help="seconds per phase (default 20)"
    )
    parser.add_argument(
        "--warmup-seconds",
        type=float,
        default=0,
        help="play the project's moves this long before the first phase, not counted "
        "(default 0; bench/versus_peer.py uses 5, as the peer's load.js does)",
    )
    parser.add_argument(
        "--json-out",
        type=Path,
        help="also write the project moves' figures to this file as one JSON object "
        "(moves_per_s, p50_ms, p99_ms, server and PostgreSQL CPU ms per move: the peer's "
        "load.js keys; with a bare phase also its floor and the requests per move)",
    )
    parser.add_argument(
        "--cache-url",
        default="redis://127.0.0.1:6379/13",
        help="Redis for the server's CACHE_URL (throttle counters) and CELERY_BROKER_URL, "
        "as in production; emptied at the start and the end (default "
        "redis://127.0.0.1:6379/13); empty: the database cache table and no broker",
    )
    parser.add_argument(
        "--streams-per-seat",
        type=int,
        default=0,
        help="keep each bench game's table stream open this many times per seat while "
        "playing (uvicorn and the Redis news bus, as production; needs --cache-url; "
        "default 0: no streams)",
    )
    parser.add_argument(
        "--players", type=int, default=4, choices=(2, 3, 4), help="players per game (default 4)"
    )
    parser.add_argument(
        "--concurrency", type=int, default=8, help="client threads, one game each (default 8)"
    )
    cores = os.cpu_count() or 1
    # One single-threaded worker per core, as docs/operating.md sizes gunicorn behind a
    # buffering proxy with PostgreSQL on the machine: the most moves per CPU second here
    # (bench/scale.py's sizes, BENCHMARKS.md "Scale-out").
    parser.add_argument(
        "--workers",
        type=int,
        default=cores,
        help=f"gunicorn worker processes (default one per core: {cores})",
    )
    parser.add_argument(
        "--threads", type=int, default=1, help="threads per gunicorn worker (default 1)"
    )
    parser.add_argument(
        "--worker-class",
        default="gthread",
        choices=("gthread", "sync"),
        help="gunicorn worker class (default gthread: keeps connections alive)",
    )
    parser.add_argument(
        "--database-url",
        default=DEFAULT_DATABASE_URL,
        help=f"the bench database, dropped and recreated (default {DEFAULT_DATABASE_URL})",
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the bench database at the end (to inspect it)"
    )
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=600,
        help="time limit for the whole run; no phase starts after it (default 600)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed for the players' choices")
    parser.add_argument(
        "--reveal-bias",
        type=float,
        default=0.7,
        help="chance to reveal (or end the turn) when legal, as in manage.py simulate",
    )
    parser.add_argument(
        "--in-process-games",
        type=int,
        default=1,
        help="games played in-process for the query counts and the interleaved CPU ratio "
        "(default 1)",
    )
    parser.add_argument(
        "--in-process-only",
        action="store_true",
        help="only the in-process measurements: no gunicorn, no HTTP phases",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="also print a cProfile of the in-process move POSTs",
    )
    args = parser.parse_args(argv)
    if args.rounds < 0 or args.phase_seconds <= 0 or args.warmup_seconds < 0:
        parser.error("--rounds must be >= 0, --phase-seconds > 0 and --warmup-seconds >= 0")
    for name in ("games", "concurrency", "workers", "threads", "in_process_games"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if not 0 <= args.reveal_bias <= 1:
        parser.error("--reveal-bias must be between 0 and 1")
    if args.streams_per_seat < 0:
        parser.error("--streams-per-seat must be at least 0")
    if args.streams_per_seat and not args.cache_url:
        parser.error("--streams-per-seat needs --cache-url (the streams' Redis news bus)")

    started = time.monotonic()
    deadline = started + args.max_seconds
    signal.signal(signal.SIGTERM, _interrupt)
    # Also when started in the background, where the shell makes Python ignore SIGINT.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        url, name = checked_database_url(args.database_url)
        server_version = recreate_database(url, name)
        if args.cache_url:
            flush_redis(args.cache_url)
    except BenchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        return run(args, url, name, server_version, started, deadline)
    except BenchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        if args.cache_url:
            flush_redis(args.cache_url)
        if args.keep:
            print(f"kept the database {name}")
        else:
            try:
                with admin_connection(url) as connection:
                    drop_database(connection, name)
            except BenchError as error:
                print(f"error: could not drop {name}: {error}", file=sys.stderr)


@dataclass
class PhaseResult:
    kind: str  # "project" or "bare"
    runs: list[PhaseRun]
    wall: float
    server_cpu: float
    postgres_cpu: float
    load: float  # the 1-minute load average when the phase ended


def run_phase(kind, players, seconds, server, name, stop) -> PhaseResult:
    """All ``players`` play at once for ``seconds``; CPU read around the phase."""
    postgres_before = postgres_cpu_seconds(name)
    server_before = group_cpu_seconds(server.process.pid)
    start = time.monotonic()
    until = start + seconds
    with ThreadPoolExecutor(max_workers=len(players)) as pool:
        futures = [pool.submit(player.play, until, stop) for player in players]
        try:
            runs = [future.result() for future in futures]
        except BaseException as error:
            stop.set()  # the other threads end their loops at their next request
            if isinstance(error, Exception):
                failure = f"a client thread failed: {error!r}\n{server.log_tail()}"
                raise BenchError(failure) from error
            raise
    wall = time.monotonic() - start
    return PhaseResult(
        kind,
        runs,
        wall,
        cpu_used(server_before, group_cpu_seconds(server.process.pid)),
        cpu_used(postgres_before, postgres_cpu_seconds(name)),
        os.getloadavg()[0],
    )


@dataclass
class Totals:
    """One kind's phases summed."""

    moves: int
    finished: int
    wall: float
    posts: list[float]
    gets: list[float]
    server_cpu: float
    postgres_cpu: float
    errors: Counter

    @classmethod
    def of(cls, phases: list[PhaseResult]) -> "Totals":
        runs = [run for phase in phases for run in phase.runs]
        return cls(
            moves=sum(run.moves for run in runs),
            finished=sum(run.finished for run in runs),
            wall=sum(phase.wall for phase in phases),
            posts=[s for run in runs for s in run.post_seconds],
            gets=[s for run in runs for s in run.get_seconds],
            server_cpu=sum(phase.server_cpu for phase in phases),
            postgres_cpu=sum(phase.postgres_cpu for phase in phases),
            errors=sum((run.errors for run in runs), Counter()),
        )

    @property
    def rate(self) -> float:
        return self.moves / self.wall if self.wall else 0.0


def print_totals(label: str, totals: Totals) -> None:
    requests = len(totals.posts) + len(totals.gets)
    print(
        f"\n{label}: {totals.moves} writes in {totals.wall:.1f} s = {totals.rate:.1f}/s "
        f"({requests / max(totals.wall, 1e-9):.1f} requests/s with the GETs)"
        + (f"; {totals.finished} games played to the end" if label.startswith("project") else "")
    )
    if totals.moves:
        print(
            f"  CPU per write (with its GETs): gunicorn "
            f"{totals.server_cpu / totals.moves * 1000:.1f} ms, PostgreSQL >= "
            f"{totals.postgres_cpu / totals.moves * 1000:.1f} ms"
        )
    print("  " + latency_line("POST", totals.posts))
    if totals.gets:
        print("  " + latency_line("GET", totals.gets))
    print(
        "  errors: "
        + (", ".join(f"{key}: {count}" for key, count in sorted(totals.errors.items())) or "none")
    )


def figures(totals: Totals, floor: Totals | None = None) -> dict:
    """The project moves' figures under the keys of the peer's ``load.js`` result, so that
    ``bench/versus_peer.py`` reads both alike. A move's latency is its POST's, as the
    peer's is the move's send until its answer; CPU is per move, its GETs included.

    With ``floor`` (the bare phases' totals), also ``"floor"``: the bare write's rate and
    CPU, what every request of the stack pays, and ``"requests_per_move"`` (the POST and
    its share of the next players' GETs)."""
    moves = max(totals.moves, 1)
    posts_ms = [seconds * 1000 for seconds in totals.posts]
    extra = {}
    if floor is not None and floor.moves:
        extra = {
            "requests_per_move": (len(totals.posts) + len(totals.gets)) / moves,
            "floor": {
                "writes_per_s": floor.rate,
                "server_cpu_ms": floor.server_cpu / floor.moves * 1000,
                "postgres_cpu_ms": floor.postgres_cpu / floor.moves * 1000,
            },
        }
    return {
        "system": "service",
        "moves": totals.moves,
        "wall_s": totals.wall,
        "moves_per_s": totals.rate,
        "p50_ms": percentile(posts_ms, 50) if posts_ms else None,
        "p99_ms": percentile(posts_ms, 99) if posts_ms else None,
        "server_cpu_ms_per_move": totals.server_cpu / moves * 1000,
        "postgres_cpu_ms_per_move": totals.postgres_cpu / moves * 1000,
        "errors": dict(totals.errors),
        "load_after": list(os.getloadavg()),
        **extra,
    }


def run(args, url, name, server_version, started, deadline) -> int:
    env = django_environment(url, args.cache_url)
    print(
        f"machine: {os.cpu_count()} cores ({cpu_model()}), {platform.system()} "
        f"{platform.release()}, Python {platform.python_version()}, PostgreSQL {server_version}, "
        f"Django {package_version('django')}, gunicorn {package_version('gunicorn')}"
    )
    # Other work on the machine skews every number below: say how busy it was.
    print(f"load average before the run: {', '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(
        f"parameters: {args.games} games x {args.players} players, concurrency "
        f"{args.concurrency}, gunicorn {args.workers} {args.worker_class} workers x "
        f"{args.threads} threads, {args.rounds} rounds of {args.phase_seconds:g} s project + "
        f"{args.phase_seconds:g} s bare, seed {args.seed}, reveal bias {args.reveal_bias}, "
        f"database {name}, cache {args.cache_url or 'database table'}, "
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    )
    migrate(env, timeout=max(10.0, deadline - time.monotonic()))
    setup_django(env)
    if not args.cache_url:
        from django.core.management import call_command

        call_command("createcachetable", verbosity=0)
    setup_start = time.monotonic()
    games = create_games(args.games, args.players, "bench")
    bare_games = create_games(args.concurrency, 2, "bare") if args.rounds else []
    query_games = create_games(args.in_process_games, args.players, "queries")
    (in_process_bare,) = create_games(1, 2, "bare-queries")
    print(
        f"setup: {len(games) + len(bare_games) + len(query_games) + 1} active games in "
        f"{time.monotonic() - setup_start:.1f} s"
    )

    report = None
    for number, query_game in enumerate(query_games):
        measured = measure_in_process(
            query_game,
            random.Random(args.seed - 1 - number),
            args.reveal_bias,
            args.profile and number == 0,
            bare_game=in_process_bare,
        )
        if report is None:
            report = measured
        else:
            report.absorb(measured)
    if args.in_process_only:
        print_in_process(report)
        return 0

    server = Gunicorn(
        env, workers=args.workers, threads=args.threads, worker_class=args.worker_class
    )
    stop = threading.Event()
    phases: list[PhaseResult] = []
    streams = HeldStreams(env, games, args.streams_per_seat) if args.streams_per_seat else None
    streams_said, streams_cpu, readers_cpu = "", 0.0, 0.0
    try:
        server.start()
        if streams is not None:
            print(f"table streams ({args.streams_per_seat} per seat): {streams.start()}")
        queue = list(reversed(games))  # popped from the end: the first game first
        project = [
            ProjectPlayer(queue, server.port, args.seed * 1_000_003 + n, args.reveal_bias)
            for n in range(args.concurrency)
        ]
        bare = [BarePlayer(game, server.port) for game in bare_games]
        # Interleaved, alternating which goes first, so drift in the machine's load
        # (other work on it) falls on both alike.
        order = []
        for number in range(args.rounds):
            pair = [("project", project), ("bare", bare)]
            order += pair if number % 2 == 0 else pair[::-1]
        if args.rounds == 0:
            order = [("project", project)]
        try:
            if args.warmup_seconds:
                # Warm caches, connections and the workers' imports, as the peer warms up.
                warmup = run_phase("project", project, args.warmup_seconds, server, name, stop)
                print(f"warm-up: {Totals.of([warmup]).rate:.1f} writes/s, not counted")
            for kind, players in order:
                if time.monotonic() > deadline:
                    print(f"stopped at --max-seconds {args.max_seconds:g}")
                    break
                phase = run_phase(kind, players, args.phase_seconds, server, name, stop)
                phases.append(phase)
                totals = Totals.of([phase])
                print(
                    f"phase {len(phases)}: {kind:7} {totals.rate:6.1f} writes/s, "
                    f"POST p99 {percentile([s * 1000 for s in totals.posts], 99):.1f} ms "
                    f"(n={len(totals.posts)}), load average {phase.load:.2f}"
                )
                if kind == "project" and all(player.exhausted for player in project):
                    print("every game is finished: raise --games")
                    break
        finally:
            for player in project + bare:
                player.api.close()
    finally:
        if streams is not None:
            streams_said, streams_cpu, readers_cpu = streams.stop()
        server.stop()

    mine = Totals.of([phase for phase in phases if phase.kind == "project"])
    floor = Totals.of([phase for phase in phases if phase.kind == "bare"])
    print_totals("project moves (POST + the GETs real clients need)", mine)
    if streams is not None:
        ms_per_write = 1000 / max(mine.moves, 1)  # CPU seconds -> ms per project write
        print(
            f"  table streams: {streams_said.removeprefix('events ')} table events "
            f"delivered; CPU per project write: uvicorn {streams_cpu * ms_per_write:.2f} ms, "
            f"the bench's stream readers {readers_cpu * ms_per_write:.2f} ms"
        )
    if floor.moves:
        print_totals("bare writes (bench.bare)", floor)
        mine_p99 = percentile(mine.posts, 99) if mine.posts else float("nan")
        floor_p99 = percentile(floor.posts, 99)
        ratio = mine.rate / floor.rate
        tail = mine_p99 / floor_p99
        # Against the floor, not a goal: issue 36's goals are the peer's figures
        # (make bench-peer), and the floor bounds what a move can reach (decision 0009).
        print(
            f"\nagainst the floor: project moves/s = {ratio:.2f} x bare writes/s; move POST "
            f"p99 = {tail:.2f} x bare p99; CPU per write: gunicorn "
            f"{mine.server_cpu / max(mine.moves, 1) * 1000:.1f} ms vs "
            f"{floor.server_cpu / floor.moves * 1000:.1f} ms"
        )
    print_in_process(report)
    if args.json_out:
        args.json_out.write_text(json.dumps(figures(mine, floor), indent=1) + "\n")
    errors = mine.errors + floor.errors
    if errors:
        print(f"\ngunicorn log (tail):\n{server.log_tail()}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
