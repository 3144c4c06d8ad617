"""`make run` with nothing installed: web server, worker and beat together, stopped together.

These tests start the real thing (``make run`` as a user types it) on a free port, with
its SQLite database, mail folder and filesystem broker in a temporary directory, and
drive it over HTTP and ``manage.py`` like a user would.
"""

import contextlib
import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.processes import free_port, wait_until
from tests.servers import LOG_TAIL_CHARS

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python")
# How long `make run` may take to answer, and its worker to act, before a test calls it hung.
START_SECONDS = 180
WORKER_SECONDS = 60


def session_pids(session_id: int) -> set[int]:
    """Every live process of the session ``make run`` started (the worker's pool included)."""
    pids = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            # Fields after the command name (which may hold spaces), see proc(5).
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session_id and fields[0] != "Z":
            pids.add(int(entry.name))
    return pids


def as_typed_at_a_terminal() -> None:
    """Ctrl-C's signals as a terminal's shell leaves them to the command a user types.

    A test run started in the background of a script (``cmd &``, as CI tools and ``nohup``
    do) ignores SIGINT and SIGQUIT, and a process inherits what its parent ignores: then
    ``make run`` would ignore the test's Ctrl-C, which no user at a terminal sees."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def command_line(pid: int) -> str:
    """The command line process ``pid`` runs, its arguments joined by spaces."""
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")


class LocalService:
    """``make run`` in its own session, with its settings pointing into ``tmp_path``."""

    def __init__(self, tmp_path: Path):
        self.tmp = tmp_path
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        # Nothing from the test run's own configuration (test settings, broker, database).
        self.env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("DJANGO_", "CELERY_", "DATABASE_", "EMAIL_", "SITE_URL"))
        }
        self.env.update(
            DATABASE_URL=f"sqlite:///{tmp_path}/piratz.sqlite3",
            EMAIL_FILE_PATH=str(tmp_path / "mail"),
            CELERY_BROKER_DIR=str(tmp_path / "celery"),
            SWEEP_SECONDS="1",  # beat's every-minute sweeps, every second for the test
            PYTHONUNBUFFERED="1",
        )
        self.log = tmp_path / "make-run.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                ["make", "run", f"ADDR=127.0.0.1:{self.port}"],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own terminal session, as when a user runs it
                preexec_fn=as_typed_at_a_terminal,
            )
        # Its start (migrate, then four Django processes at once) takes about 12 s on an idle
        # two-core machine and five times that in CI, beside three other suites: this bounds
        # a hang, not the start's speed (bench/ measures speed, never a timed test).
        try:
            wait_until(self.answers, START_SECONDS, f"make run to answer on {self.base}")
        except AssertionError as timed_out:
            pytest.fail(f"{timed_out}\n{self.log_tail()}")

    def log_tail(self) -> str:
        """The end of ``make run``'s output, headed with where the whole of it is."""
        tail = self.log.read_text(errors="replace")[-LOG_TAIL_CHARS:]
        return f"--- the end of its output ({self.log}) ---\n{tail}"

    def answers(self) -> bool:
        try:
            with urllib.request.urlopen(self.base + "/", timeout=2):
                return True
        except urllib.error.HTTPError:
            return True
        except OSError:
            assert self.process.poll() is None, self.log.read_text()
            return False

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [PYTHON, "manage.py", *args],
            cwd=ROOT,
            env={**self.env, "DEBUG": "true"},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    def api(self, method: str, path: str, key: str, body: dict | None = None):
        request = urllib.request.Request(
            self.base + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Token {key}", "Content-Type": "application/json"},
        )
        # runserver restarts whenever a source file changes (others edit this checkout while
        # the test runs): a refused connection means it was not received; try again.
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    return response.status, json.loads(response.read())
            except urllib.error.HTTPError as error:
                return error.code, json.loads(error.read() or b"null")
            except urllib.error.URLError as error:
                refused = isinstance(error.reason, ConnectionRefusedError)
                if not refused or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def mail_to(self, address: str) -> list[str]:
        folder = self.tmp / "mail"
        if not folder.exists():
            return []
        texts = [path.read_text(errors="replace") for path in sorted(folder.iterdir())]
        return [text for text in texts if f"To: {address}" in text]

    def exit_status(self, seconds: float, after: str) -> int:
        """``make run``'s exit status, once it has ended (at most ``seconds`` ``after`` what
        stops it); failing, the test names what still runs and ends with the log's tail."""
        try:
            return self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            running = []
            for pid in sorted(session_pids(self.process.pid)):
                with contextlib.suppress(OSError):
                    running.append(f"  {pid}: {command_line(pid)[:160]}")
            pytest.fail(
                f"make run still runs {seconds} s {after}:\n"
                + "\n".join(running)
                + "\n"
                + self.log_tail()
            )

    def kill_leftovers(self) -> None:
        if self.process is None:
            return
        for pid in session_pids(self.process.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.process.wait(timeout=10)


@pytest.fixture
def local_service(tmp_path):
    service = LocalService(tmp_path)
    try:
        yield service
    finally:
        service.kill_leftovers()


def test_make_run_sends_emails_and_plays_deadlines_and_ctrl_c_stops_it_all(local_service):
    service = local_service
    service.start()
    anna_key = service.manage("issue_token", "anna@example.com").split()[-1]
    bert_key = service.manage("issue_token", "bert@example.com").split()[-1]

    status, game = service.api(
        "POST",
        "/api/games/",
        anna_key,
        {"game": "piratz", "players": ["anna@example.com", "bert@example.com"]},
    )
    assert status == 201, game
    # The request only left a message for the worker; the worker sent the invitation.
    wait_until(lambda: service.mail_to("bert@example.com"), WORKER_SECONDS, "Bert's invitation")
    status, game = service.api("POST", f"/api/games/{game['id']}/accept/", bert_key)
    assert (status, game["status"], game["version"]) == (200, "active", 0)

    # Anna's deadline passes (moved, as the clock would); beat's sweep plays for her.
    service.manage(
        "shell",
        "-c",
        "from django.utils import timezone; from games.models import Game; "
        f"Game.objects.filter(id='{game['id']}').update(deadline=timezone.now())",
    )
    wait_until(
        lambda: service.api("GET", f"/api/games/{game['id']}/", anna_key)[1]["version"] == 1,
        WORKER_SECONDS,
        "the deadline sweep to play Anna's automatic move",
    )
    status, log = service.api("GET", f"/api/games/{game['id']}/moves/", anna_key)
    entries = log["results"] if isinstance(log, dict) else log
    assert [(entry["seat"], entry["automatic"]) for entry in entries] == [(0, True)]

    output = service.log.read_text()
    assert "Task notifications.tasks.send_emails[" in output  # run by the worker
    assert "Sending due task play-due-timeouts" in output  # sent by the embedded beat

    # Ctrl-C in the terminal: SIGINT to the foreground process group (make and its shell).
    pids = session_pids(service.process.pid)
    assert len(pids) >= 5  # make, its shell, run-local, runserver (+ child), worker (+ pool)
    os.killpg(service.process.pid, signal.SIGINT)
    service.exit_status(30, "after a Ctrl-C")
    wait_until(lambda: not session_pids(service.process.pid), 15, "every process to end")
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", service.port), timeout=1).close()


def test_the_web_server_stops_when_the_worker_dies(local_service):
    # A web server without its worker would quietly never send an email or play a
    # deadline: run-local takes it down too, and says so.
    service = local_service
    service.start()
    worker = wait_until(
        lambda: [
            pid
            for pid in session_pids(service.process.pid)
            if "celery" in command_line(pid)
            and os.getpgid(pid) == pid  # the worker's main process leads its group
        ],
        WORKER_SECONDS,
        "the worker",
    )[0]
    os.kill(worker, signal.SIGKILL)

    assert service.exit_status(30, "after its worker died") != 0
    wait_until(lambda: not session_pids(service.process.pid), 15, "every process to end")
    assert "run-local: stopping the web server and the worker" in service.log.read_text()


def test_a_process_that_ignores_the_stop_is_killed_after_ten_seconds(tmp_path):
    # run-local gives the web server and the worker ten seconds of the clock to stop, then
    # kills their groups: a stop never hangs, however busy the machine (it once counted
    # naps, which on a loaded machine took far longer than they said).
    stubborn = tmp_path / "venv" / "bin" / "python"
    stubborn.parent.mkdir(parents=True)
    stubborn.write_text("#!/bin/sh\ntrap '' TERM INT\nwhile :; do sleep 1; done\n")
    stubborn.chmod(0o755)
    process = subprocess.Popen(
        [str(ROOT / "bin" / "run-local"), f"127.0.0.1:{free_port()}"],
        env={**os.environ, "VENV": str(tmp_path / "venv"), "CELERY_BROKER_DIR": str(tmp_path)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        wait_until(lambda: len(session_pids(process.pid)) >= 3, 10, "run-local and its two")
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)

        assert process.wait(timeout=30) == 143
        took = time.monotonic() - started
        assert 8 < took < 15, took
        wait_until(lambda: not session_pids(process.pid), 10, "every process to end")
        said = process.stderr.read()
        assert b"run-local: stopping the web server and the worker" in said
        assert b"run-local: killing what did not stop within 10 seconds" in said
    finally:  # if it failed, what it left behind (only this test's session)
        for pid in session_pids(process.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        process.wait(timeout=10)
