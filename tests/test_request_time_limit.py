"""gunicorn.conf.py's request time limit: a worker serving a request over it stops itself.

gunicorn's ``timeout`` never bounds a request in a gthread worker (its main loop keeps
beating the heartbeat), so the hooks time each request and a watch stops the worker
gracefully (SIGTERM to itself); the master then starts another.
"""

import importlib.util
import signal
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def conf():
    """gunicorn.conf.py loaded as a module of its own (its request table starts empty)."""
    spec = importlib.util.spec_from_file_location("gunicorn_conf", ROOT / "gunicorn.conf.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def signals(monkeypatch) -> list:
    sent = []
    monkeypatch.setattr("os.kill", lambda pid, sig: sent.append(sig))
    return sent


class Log:
    def __init__(self):
        self.errors = []

    def error(self, message, *args):
        self.errors.append(message % args)


def serve(conf, path: str, at: float, monkeypatch) -> None:
    """This thread starts serving ``GET path`` at monotonic time ``at``."""
    monkeypatch.setattr(conf.time, "monotonic", lambda: at)
    conf.pre_request(None, SimpleNamespace(method="GET", path=path))


def test_the_limit_is_a_minute_unless_set(conf):
    assert conf.REQUEST_TIME_LIMIT == 60


def test_a_request_over_the_limit_stops_its_worker_gracefully(conf, signals, monkeypatch):
    worker = SimpleNamespace(log=Log())
    serve(conf, "/api/games/", 1000.0, monkeypatch)
    assert not conf.stop_if_overdue(worker, 1000.0 + conf.REQUEST_TIME_LIMIT)
    assert signals == []
    assert conf.stop_if_overdue(worker, 1000.0 + conf.REQUEST_TIME_LIMIT + 1)
    assert signals == [signal.SIGTERM]
    assert "GET /api/games/ has run over 60 s" in worker.log.errors[0]


def test_an_answered_request_is_no_longer_timed(conf, signals, monkeypatch):
    serve(conf, "/api/games/", 1000.0, monkeypatch)
    conf.post_request(None, None, {}, None)
    assert conf.overdue_request(1_000_000.0) is None


def test_each_thread_is_timed_on_its_own(conf, monkeypatch):
    serve(conf, "/old/", 1000.0, monkeypatch)
    other = threading.Thread(target=serve, args=(conf, "/new/", 1050.0, monkeypatch))
    other.start()
    other.join()
    assert conf.overdue_request(1000.0 + conf.REQUEST_TIME_LIMIT + 1) == "GET /old/"
    conf.post_request(None, None, {}, None)  # this thread's, /old/
    assert conf.overdue_request(1000.0 + conf.REQUEST_TIME_LIMIT + 1) is None
    assert conf.overdue_request(1050.0 + conf.REQUEST_TIME_LIMIT + 1) == "GET /new/"


def test_the_worker_starts_the_watch(conf, monkeypatch):
    started = []

    class Thread:
        def __init__(self, target, args, daemon):
            self.call = (target, args, daemon)

        def start(self):
            started.append(self.call)

    monkeypatch.setattr(
        conf, "threading", SimpleNamespace(Thread=Thread, get_ident=threading.get_ident)
    )
    monkeypatch.setattr("gc.freeze", lambda: None)  # this test's process keeps collecting
    worker = SimpleNamespace(log=Log())
    conf.post_worker_init(worker)
    assert started == [(conf._watch_requests, (worker,), True)]


def test_the_log_line_names_no_credential(conf, signals, monkeypatch):
    """gunicorn's log has no redacting filter: a login link's token must not reach it."""
    from django.core import signing

    token = signing.dumps({"user": 1}, salt="test-login-link")
    worker = SimpleNamespace(log=Log())
    serve(conf, f"/accounts/login/{token}/", 1000.0, monkeypatch)
    assert conf.stop_if_overdue(worker, 1000.0 + conf.REQUEST_TIME_LIMIT + 1)
    assert token not in worker.log.errors[0]
    assert "/accounts/login/" in worker.log.errors[0]
