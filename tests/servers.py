"""Servers we start ourselves on 127.0.0.1 for tests and benchmarks: gunicorn, Redis, PostgreSQL.

Standard library only, and nothing from Django, so that ``bench/api.py`` (a script that sets
Django up later) and the tests share one copy. Each server runs in a process group of its
own, binds 127.0.0.1 on a free port and is stopped by its ``stop``; none of them is the
machine's own Redis or PostgreSQL.
"""

import contextlib
import http.client
import os
import pwd
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from glob import glob
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
# How much of a process's output a failing test shows: its end, where the trouble is.
LOG_TAIL_CHARS = 3000


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def wait_until(condition: Callable[[], object], timeout: float, what: str, every: float = 0.1):
    """``condition()``'s first truthy result, polled; fails naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = condition()
        if result:
            return result
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


class ServerError(RuntimeError):
    """A server we start did not come up; the message holds the tail of its log."""


def _accepts_connections(port: int) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=1):
            return True
    except OSError:
        return False


class Gunicorn:
    """gunicorn serving ``piratz_site.wsgi`` as a child process in its own session.

    ``start`` returns once it answers HTTP; ``stop`` is a graceful SIGTERM, then SIGKILL.
    Subclasses may set ``failure`` to the exception class their callers catch.
    """

    failure: type[Exception] = ServerError

    def __init__(
        self,
        env,
        *,
        workers: int | None,
        threads: int | None,
        worker_class: str | None,
        port: int = 0,
    ):
        """None for ``workers``, ``threads`` or ``worker_class``: production's value, from
        ``gunicorn.conf.py`` (gunicorn reads it from the working directory)."""
        self.env, self.workers, self.threads = env, workers, threads
        self.worker_class = worker_class
        self.port = port or free_port()
        self.process = None
        # Read after stop() for error reports; the OS deletes it when the process ends.
        self.log = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115

    def start(self, timeout: float = 30) -> "Gunicorn":
        command = [str(Path(sys.executable).parent / "gunicorn"), "piratz_site.wsgi"]
        command += ["--bind", f"{HOST}:{self.port}", "--keep-alive", "10"]
        for flag, value in (
            ("--workers", self.workers),
            ("--worker-class", self.worker_class),
            ("--threads", self.threads),
        ):
            if value is not None:
                command += [flag, str(value)]
        command += [
            # Import Django once in the master, before the readiness check: the workers
            # then serve at once, and no worker's start-up is timed as serving.
            "--preload",
            "--log-level",
            "warning",
        ]
        # Own session: a Ctrl-C in the terminal reaches only the caller, which then stops
        # gunicorn in order (and a killpg can never reach anything else).
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise self.failure(f"gunicorn exited at start:\n{self.log_tail()}")
            try:
                connection = http.client.HTTPConnection(HOST, self.port, timeout=2)
                connection.request("GET", "/api/games/")
                connection.getresponse().read()  # any answer (401) means it serves
                connection.close()
                return self
            except OSError:
                time.sleep(0.1)
        raise self.failure(f"gunicorn did not answer within {timeout:.0f} s:\n{self.log_tail()}")

    def log_tail(self) -> str:
        self.log.seek(0)
        return self.log.read()[-LOG_TAIL_CHARS:]

    def stop(self, grace: float = 15) -> None:
        """Graceful shutdown (SIGTERM), then SIGKILL after ``grace`` seconds."""
        self.terminate()
        self.finish(time.monotonic() + grace)

    def terminate(self) -> None:
        """Begin gunicorn's graceful shutdown (SIGTERM)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()

    def finish(self, deadline: float) -> None:
        """Wait for a begun shutdown until ``deadline`` (monotonic), then SIGKILL the group."""
        if self.process is None or self.process.poll() is not None:
            return
        try:
            self.process.wait(timeout=max(deadline - time.monotonic(), 0))
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=5)


def _raise_open_files() -> None:
    """In a child about to serve many connections: its soft limit of open files up to the
    hard one (a stream is a socket)."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Uvicorn:
    """uvicorn serving ``piratz_site.asgi`` (the table streams, docs/operating.md) as a child
    process in its own session; ``start`` returns once it accepts connections, ``stop`` is a
    graceful SIGTERM, then SIGKILL. ``limit_concurrency``: connections it holds at most."""

    failure: type[Exception] = ServerError

    def __init__(self, env, *, port: int = 0, limit_concurrency: int | None = None):
        self.env, self.limit_concurrency = env, limit_concurrency
        self.port = port or free_port()
        self.process = None
        self.log = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115

    def start(self, timeout: float = 30) -> "Uvicorn":
        command = [str(Path(sys.executable).parent / "uvicorn"), "piratz_site.asgi:application"]
        command += ["--host", HOST, "--port", str(self.port), "--no-access-log"]
        command += ["--no-proxy-headers", "--log-level", "warning"]
        if self.limit_concurrency is not None:
            command += ["--limit-concurrency", str(self.limit_concurrency)]
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_raise_open_files,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise self.failure(f"uvicorn exited at start:\n{self.log_tail()}")
            if _accepts_connections(self.port):
                return self
            time.sleep(0.1)
        raise self.failure(f"uvicorn did not listen within {timeout:.0f} s:\n{self.log_tail()}")

    def log_tail(self) -> str:
        self.log.seek(0)
        return self.log.read()[-LOG_TAIL_CHARS:]

    def stop(self, grace: float = 15) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=5)


class RedisServer:
    """A ``redis-server`` of our own on a free port: no persistence, stopped and started at will.

    ``stop`` then ``start`` brings it back on the same port, empty (as a Redis that lost its
    memory would): whatever was queued in it is gone.
    """

    def __init__(self, port: int = 0):
        self.binary = shutil.which("redis-server")
        if self.binary is None:
            raise ServerError("redis-server is not installed (apt-get install redis-server)")
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def start(self, timeout: float = 10) -> "RedisServer":
        self.process = subprocess.Popen(
            [self.binary, "--bind", HOST, "--port", str(self.port), "--save", ""]
            + ["--appendonly", "no", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_until(
            lambda: _accepts_connections(self.port) or self.process.poll() is not None,
            timeout,
            f"redis-server on port {self.port}",
        )
        if self.process.poll() is not None:
            raise ServerError(f"redis-server on port {self.port} exited at start")
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None


def postgres_bin_dir() -> Path:
    """Where ``initdb`` and ``pg_ctl`` are: ``PG_BIN``, else the newest Debian PostgreSQL."""
    if os.environ.get("PG_BIN"):
        return Path(os.environ["PG_BIN"])
    found = sorted(
        glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda path: int(path.split("/")[4])
    )
    if not found:
        raise ServerError("no PostgreSQL server binaries (apt-get install postgresql, or PG_BIN)")
    return Path(found[-1]).parent


class PostgresCluster:
    """A throwaway PostgreSQL cluster in a temporary directory, on a free port of 127.0.0.1.

    ``initdb`` refuses to run as root, so as root the cluster belongs to the ``postgres``
    system user (every Debian PostgreSQL install has one) and its commands run through
    ``runuser``. Trust authentication for user ``postgres``, on 127.0.0.1 only. ``stop``
    (fast: open sessions are cut off, as in a crash or failover) and ``start`` bring it
    back on the same port with its data; ``destroy`` removes it.
    """

    def __init__(self, port: int = 0):
        self.bin = postgres_bin_dir()
        self.port = port or free_port()
        self.as_root = os.geteuid() == 0
        self.dir = Path(tempfile.mkdtemp(prefix="piratz-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"
        if self.as_root:
            owner = pwd.getpwnam("postgres")
            os.chown(self.dir, owner.pw_uid, owner.pw_gid)

    def url(self, database: str) -> str:
        return f"postgres://postgres@{HOST}:{self.port}/{database}"

    def _run(self, *args: str, timeout: float = 60) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        completed = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, check=False, cwd=self.dir
        )
        if completed.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise ServerError(f"{' '.join(args[:2])} failed:\n{completed.stderr}\n{log}")

    def init(self) -> "PostgresCluster":
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth", "trust", "-E", "UTF8")
        return self

    def start(self, timeout: float = 30) -> "PostgresCluster":
        options = (
            f"-c listen_addresses={HOST} -c port={self.port} -c unix_socket_directories=''"
            " -c fsync=off -c full_page_writes=off -c synchronous_commit=off"
        )
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start",
            timeout=timeout,
        )  # fmt: skip
        return self

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def destroy(self) -> None:
        with contextlib.suppress(ServerError):
            self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
