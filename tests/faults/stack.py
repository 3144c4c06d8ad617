"""The production stack on 127.0.0.1 for the fault tests, and an HTTP client that plays on it.

``Stack`` runs gunicorn, a Celery worker and beat, a ``redis-server`` of our own as the
broker and an SMTP sink, all on the live PostgreSQL test database (the test's own
connection sees what they write). Faults are injected by stopping and starting the parts.
"""

import contextlib
import http.client
import json
import random
import socket
import time
from collections import Counter
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from pathlib import Path

from notifications.models import OutboundEmail
from tests.processes import (
    CeleryProcess,
    SmtpSink,
    create_cache_table,
    service_env,
    stop_together,
)
from tests.servers import HOST, LOG_TAIL_CHARS, Gunicorn, RedisServer

REQUEST_TIMEOUT = 30
# A stack at its end: seconds for its processes to shut down warmly before they are killed.
STOP_GRACE_SECONDS = 3


@dataclass
class Answer:
    status: int
    body: dict | str
    headers: dict
    seconds: float
    move: bool = False  # the answer to a move (not to a fetch)

    @property
    def code(self) -> str | None:
        return self.body.get("code") if isinstance(self.body, dict) else None


class Api:
    """HTTP/1.1 to our gunicorn with one player's API key: one connection per call."""

    def __init__(self, port: int, key: str | None = None):
        self.port, self.key = port, key

    def request(
        self, method: str, path: str, body: dict | None = None, headers: dict | None = None
    ) -> Answer:
        headers = {"Accept": "application/json", "Host": HOST, **(headers or {})}
        if self.key:
            headers["Authorization"] = f"Token {self.key}"
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        start = time.monotonic()
        connection = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
        try:
            connection.request(method, path, body=payload, headers=headers)
            response = connection.getresponse()
            raw = response.read()
            answer_headers = dict(response.getheaders())
            status = response.status
        finally:
            connection.close()
        content_type = answer_headers.get("Content-Type", "")
        parsed = json.loads(raw) if content_type.startswith("application/json") else raw.decode()
        return Answer(status, parsed, answer_headers, time.monotonic() - start)

    def game(self, game_id) -> Answer:
        return self.request("GET", f"/api/games/{game_id}/")

    def move(self, game_id, version: int, action: dict) -> Answer:
        answer = self.request(
            "POST", f"/api/games/{game_id}/moves/", {"version": version, **action}
        )
        answer.move = True
        return answer


@dataclass
class Table:
    """Players' API clients by seat, for playing games over HTTP."""

    apis: list[Api]
    rng: random.Random = field(default_factory=lambda: random.Random(10))

    def play_one(self, game_id) -> Answer | None:
        """Fetch the game as its current player and play one random legal move.

        The move's answer; a failed fetch's answer (``move`` false) when a fetch fails;
        None when the game is over.
        """
        answer = self.apis[0].game(game_id)
        if answer.status != 200:
            return answer
        if answer.body["status"] != "active":
            return None
        api = self.apis[answer.body["state"]["current_seat"]]
        answer = api.game(game_id)
        if answer.status != 200:
            return answer
        action = self.rng.choice(answer.body["state"]["legal_actions"])
        return api.move(game_id, answer.body["version"], action)


def slow_half_request(port: int) -> socket.socket:
    """A client that opened a connection and sent the start of a request, no more (yet)."""
    sock = socket.create_connection((HOST, port), timeout=5)
    sock.sendall(b"GET /api/games/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    return sock


def email_keys(emails) -> Counter:
    """(recipient, subject) of each outbox row: what the sink must have received, once each."""
    return Counter((email.to, " ".join(email.rendered().subject.split())) for email in emails)


def sink_keys(sinks: list[SmtpSink]) -> Counter:
    keys = Counter()
    for sink in sinks:
        for envelope in sink.messages:
            subject = message_from_bytes(envelope.content, policy=policy.default)["subject"]
            subject = " ".join(str(subject).split())  # unfolded, as the row has it
            for recipient in envelope.rcpt_tos:
                keys[(recipient, subject)] += 1
    return keys


class Stack:
    """gunicorn + Celery worker and beat + our Redis + an SMTP sink on the live test database.

    ``smtp_down``/``smtp_up`` and ``redis.stop``/``redis.start`` inject the faults; the sink
    comes back on the same port (a new sink object: ``sinks`` keeps every one's messages).
    """

    def __init__(
        self,
        tmp: Path,
        *,
        gunicorn_threads: int | None = 8,
        counters_on_redis: bool = True,
        smtp_port: int | None = None,
        **env_extra: str,
    ):
        """``gunicorn_threads=None``: production's worker settings (``gunicorn.conf.py``).
        ``counters_on_redis``: the cache (throttle counters, the outbox's wake-up flag) on
        our Redis too, in a database of its own, as production keeps it; False: in a
        database table, as ``make run`` keeps it. ``smtp_port``: send through another SMTP
        server on 127.0.0.1 than the stack's sink (which then receives nothing)."""
        self.tmp = tmp
        self.redis = RedisServer().start()
        self.sinks = [SmtpSink().start()]
        self.smtp_port = smtp_port or self.sinks[0].port
        if counters_on_redis:
            env_extra["CACHE_URL"] = f"redis://{HOST}:{self.redis.port}/1"
        self.env = service_env(
            broker_url=self.redis.url,
            smtp_port=self.smtp_port,
            DEBUG="false",
            ALLOWED_HOSTS=HOST,
            API_THROTTLE_USER="1000000/min",
            API_THROTTLE_ANON="1000000/min",
            PYTHONWARNINGS="ignore:No directory at",
            **env_extra,
        )
        self.processes: list[CeleryProcess] = []
        # Without counters_on_redis the cache is a table in the database.
        create_cache_table(self.env)
        self.web = (
            Gunicorn(self.env, workers=2, threads=gunicorn_threads, worker_class="gthread")
            if gunicorn_threads
            else Gunicorn(self.env, workers=None, threads=None, worker_class=None)
        )

    def start(self, *, worker: bool = True, beat: bool = True, web: bool = True) -> "Stack":
        if worker:
            self.start_worker("w1")
        if beat:
            self.processes.append(CeleryProcess.beat("b1", self.env, self.tmp).start())
        if web:
            self.web.start()
        for process in self.processes:
            process.wait_ready()
        return self

    def start_worker(self, name: str, concurrency: int = 2) -> CeleryProcess:
        process = CeleryProcess.worker(name, self.env, self.tmp, concurrency=concurrency)
        self.processes.append(process.start())
        return process

    def api(self, key: str | None = None) -> Api:
        return Api(self.web.port, key)

    @property
    def sink(self) -> SmtpSink:
        return self.sinks[-1]

    def delivered(self) -> int:
        return sum(sink.count() for sink in self.sinks)

    def smtp_down(self) -> None:
        self.sink.stop()

    def smtp_up(self) -> None:
        self.sinks.append(SmtpSink(self.smtp_port).start())

    def log_tails(self) -> str:
        """The end of each process's output (gunicorn, the worker, beat; ``LOG_TAIL_CHARS``
        each): what a failed test prints to say what its processes were doing."""
        parts = [f"--- gunicorn:\n{self.web.log_tail()}"]
        parts += [f"--- {p.log.name}:\n{p.output()[-LOG_TAIL_CHARS:]}" for p in self.processes]
        return "\n".join(parts)

    def stop(self) -> None:
        """Stop every part at once: no test looks at the stack after this, so a part that
        does not finish its shutdown within a few seconds is killed rather than waited for."""
        stop_together([self.web, *self.processes], grace=STOP_GRACE_SECONDS)
        self.redis.stop()
        for sink in self.sinks:
            with contextlib.suppress(AssertionError, RuntimeError, AttributeError):
                sink.stop()  # (one stopped by smtp_down already)

    def email_counts(self, emails) -> dict[str, int]:
        """Outbox rows ``emails`` against the mail the sinks received: expected, delivered
        (of those), missing, duplicates (a row's mail received more than once) and others
        (mail no row asked for)."""
        expected, received = email_keys(emails), sink_keys(self.sinks)
        return {
            "expected": sum(expected.values()),
            "delivered": sum(min(received[key], n) for key, n in expected.items()),
            "missing": sum(max(n - received[key], 0) for key, n in expected.items()),
            "duplicates": sum(max(received[key] - n, 0) for key, n in expected.items()),
            "others": sum(n for key, n in received.items() if key not in expected),
        }


Status = OutboundEmail.Status
