"""Real processes for machinery tests: Celery workers and beats, an SMTP sink, many due games.

Tests that are about the machinery run the real thing: ``celery`` processes on a real
broker and the live test database, and a real SMTP conversation with a sink on 127.0.0.1.
"""

import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

from aiosmtpd.controller import Controller
from django.db import connection
from django.utils import timezone

from games.models import Game, Seat
from piratz_site.celery import app
from tests.servers import free_port, wait_until

ROOT = Path(__file__).resolve().parent.parent
CELERY = str(ROOT / ".venv" / "bin" / "celery")
SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"


class SmtpSink:
    """An SMTP server on 127.0.0.1 that accepts every message and keeps it in ``messages``."""

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.messages: list = []  # aiosmtpd envelopes, in arrival order
        self.arrivals: list[float] = []  # time.time() of each message's end of DATA
        self._lock = threading.Lock()
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port)
        # aiosmtpd logs every SMTP line at INFO: thousands of lines that slow the test down.
        logging.getLogger("mail.log").setLevel(logging.WARNING)

    async def handle_DATA(self, server, session, envelope):  # aiosmtpd's handler hook
        with self._lock:
            self.messages.append(envelope)
            self.arrivals.append(time.time())
        return "250 Message accepted for delivery"

    def start(self) -> "SmtpSink":
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()

    def count(self) -> int:
        with self._lock:
            return len(self.messages)


def use_smtp(settings, port: int, timeout: int = 5) -> None:
    """Send this process's email through SMTP on 127.0.0.1:``port``, as production does
    (``settings``: pytest-django's fixture)."""
    options = {"host": "127.0.0.1", "port": port, "timeout": timeout}
    settings.MAILERS = {"default": {"BACKEND": SMTP_BACKEND, "OPTIONS": options}}


class SilentSmtpServer:
    """A socket on 127.0.0.1 that accepts connections and never says a word (no greeting)."""

    def __init__(self):
        self._socket = socket.create_server(("127.0.0.1", 0))
        self.port = self._socket.getsockname()[1]
        self._accepted: list[socket.socket] = []
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._socket.accept()
            except OSError:
                return
            self._accepted.append(conn)

    @property
    def connections(self) -> int:
        return len(self._accepted)

    def close(self) -> None:
        self._socket.close()
        for conn in self._accepted:
            conn.close()


@contextlib.contextmanager
def celery_app_on(broker_url: str):
    """The project's Celery app sending tasks through ``broker_url`` (not run eagerly) inside
    the block; its settings and connections are put back after."""
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=broker_url, task_always_eager=False)
    forget_broker_connections()
    try:
        yield app
    finally:
        app.conf.update(saved)
        forget_broker_connections()


def forget_broker_connections() -> None:
    """Drop the app's broker connection pools (cached on first use): a broker that moved or
    restarted needs new ones."""
    app._pool = None
    app.amqp._producer_pool = None


def service_env(*, broker_url: str, smtp_port: int, **extra: str) -> dict[str, str]:
    """The environment of a production-like process on the live test database.

    Production settings (not the test settings: nothing eager), the database the running
    test uses, this broker, SMTP to 127.0.0.1:``smtp_port``, sweeps every second.
    """
    db = connection.settings_dict
    assert connection.vendor == "postgresql", "worker processes need the shared PostgreSQL"
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "CELERY_", "DATABASE_", "EMAIL_"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="piratz_site.settings",
        SECRET_KEY="machinery-test-secret-key-" + "x" * 30,
        DATABASE_URL=(
            f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}"
            f":{db['PORT'] or 5432}/{db['NAME']}"
        ),
        DATABASE_CONN_MAX_AGE="0",
        CELERY_BROKER_URL=broker_url,
        EMAIL_BACKEND=SMTP_BACKEND,
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(smtp_port),
        EMAIL_TIMEOUT="5",
        SWEEP_SECONDS="1",
        PYTHONUNBUFFERED="1",
        LOG_LEVEL="INFO",
        **extra,
    )
    return env


def create_cache_table(env: dict[str, str]) -> None:
    """The database cache's table, for processes of ``env`` (``service_env``) that keep
    their cache in the database (no ``CACHE_URL``), as ``make run`` does.

    The tests' own settings keep their cache in memory, so the test database is migrated
    without that table; a worker would fail each email whose send check reads the cache
    (whether the player is at the table), or only pass when an earlier test happened to
    make the table. Leaves a table that exists alone.
    """
    subprocess.run(
        [sys.executable, "manage.py", "createcachetable"],
        cwd=ROOT, env=env, check=True, capture_output=True, timeout=60,
    )  # fmt: skip


class CeleryProcess:
    """``celery -A piratz_site <args>`` in its own process group, its output in ``log``."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path):
        self.args, self.env, self.log = args, env, log
        self.process: subprocess.Popen | None = None

    @classmethod
    def worker(cls, name: str, env, tmp: Path, concurrency: int = 2) -> "CeleryProcess":
        return cls(
            # -n: two workers on one host need distinct names; without gossip and mingle
            # they do not talk to each other at all (as production may run them).
            ["worker", "-n", f"{name}@%h", "-c", str(concurrency), "--loglevel", "INFO"]
            + ["--without-gossip", "--without-mingle", "--without-heartbeat"],
            env,
            tmp / f"{name}.log",
        )

    @classmethod
    def beat(cls, name: str, env, tmp: Path) -> "CeleryProcess":
        schedule = tmp / f"{name}-schedule"
        return cls(
            ["beat", "--schedule", str(schedule), "--loglevel", "INFO"], env, tmp / f"{name}.log"
        )

    def start(self) -> "CeleryProcess":
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [CELERY, "-A", "piratz_site", *self.args],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # a group of its own: the pool goes with it
            )
        return self

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def wait_ready(self, timeout: float = 30) -> None:
        marker = " ready." if self.args[0] == "worker" else "beat: Starting..."
        wait_until(
            lambda: marker in self.output() or self._died(), timeout, f"{self.log.name} ready"
        )
        assert not self._died(), self.output()

    def _died(self) -> bool:
        return self.process.poll() is not None

    def kill(self) -> None:
        """SIGKILL the whole group at once: the main process and its pool, no cleanup."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self, grace: float = 20) -> None:
        """A warm shutdown (SIGTERM), then SIGKILL for whatever is left after ``grace`` s."""
        stop_together([self], grace)

    def terminate(self) -> None:
        """Begin a warm shutdown (SIGTERM to the main process, which stops its pool)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()

    def finish(self, deadline: float) -> None:
        """Wait for a begun shutdown until ``deadline`` (monotonic), then SIGKILL the group."""
        if self.process is None:
            return
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=max(deadline - time.monotonic(), 0))
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)  # the pool, if it outlived the main
        self.process.wait(timeout=10)


def stop_together(processes, grace: float) -> None:
    """Warm-shut ``processes`` (anything with ``terminate`` and ``finish``) at once and
    SIGKILL what is left after ``grace`` seconds: the waits overlap instead of adding up."""
    for process in processes:
        process.terminate()
    deadline = time.monotonic() + grace
    for process in processes:
        process.finish(deadline)


def clone_games(template: Game, count: int, *, deadline=None) -> list[Game]:
    """``count`` copies of the active ``template`` game with its seats, due at ``deadline``.

    Bulk-written, every column copied (so new columns need no change here); the moves
    log starts empty like the template's.
    """
    deadline = deadline or timezone.now()
    fields = [f.attname for f in Game._meta.concrete_fields if f.attname != "id"]
    games = [
        Game(id=uuid.uuid4(), **{**{f: getattr(template, f) for f in fields}, "deadline": deadline})
        for _ in range(count)
    ]
    Game.objects.bulk_create(games, batch_size=1000)
    seat_fields = [f.attname for f in Seat._meta.concrete_fields if f.attname not in ("id",)]
    template_seats = list(Seat.objects.filter(game_id=template.id))
    Seat.objects.bulk_create(
        [
            Seat(**{**{f: getattr(seat, f) for f in seat_fields}, "game_id": game.id})
            for game in games
            for seat in template_seats
        ],
        batch_size=1000,
    )
    return games
