"""gunicorn's production settings: read from the working directory by `gunicorn piratz_site.wsgi`.

Threads, not gunicorn's default single-threaded "sync" worker: a sync worker reads a
request with a blocking socket, so one client that sends its headers slowly (slowloris)
holds the whole worker, and with one worker the whole site. A gthread worker hands a
connection to a thread only once it has data, and gives back one that stays silent for
5 s; a client that keeps trickling bytes still holds one thread. Workers take new
connections as they come, not evenly, so one worker may hold them all: fewer than
``threads`` such clients is what gunicorn alone is sure to carry
(tests/faults/test_slow_clients.py proves 28 with the defaults), ``workers * threads``
at best. Beyond that, serve behind a buffering proxy (nginx), which passes a request on
only once it has all of it (docs/operating.md "Faults we test").

A request time limit (``REQUEST_TIME_LIMIT``, below): gunicorn's ``timeout`` bounds a
request only for sync workers. A gthread worker's main loop beats the heartbeat while
its threads serve, so a request may run for ever (one ran 129 s and grew its worker by
1.6 GB). The hooks below time each request; one over the limit makes its worker stop.

Command-line flags override these (``bench/api.py`` sets its own).
"""

import os
import signal
import threading
import time

worker_class = "gthread"
workers = int(os.environ.get("GUNICORN_WORKERS", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "32"))
# gunicorn's own lines ("Starting gunicorn", "Booting worker", the request time limit's)
# redacted, and with LOG_FORMAT=json one JSON object each, as Django's are.
logger_class = "core.logs.server_log.ServerLogger"

# Seconds a request may run. A buffering proxy gives up after 60 s by default (nginx's
# proxy_read_timeout), so later work is wasted; every request here takes milliseconds.
# A worker with a request over it stops gracefully (SIGTERM to itself): it takes no new
# connections, finishes the others within ``graceful_timeout``, and the master restarts it,
# killing it ``timeout`` s after its last heartbeat if the runaway thread holds its exit.
# Python cannot stop the one thread alone, so this is the bound, and the memory goes too.
# Not a gunicorn setting (an upper-case name: gunicorn ignores it).
REQUEST_TIME_LIMIT = int(os.environ.get("GUNICORN_REQUEST_TIME_LIMIT", "60"))
# thread id -> (monotonic start, "METHOD path") of the requests this worker is serving.
_RUNNING = {}


def on_starting(server):
    """Check the configuration in the master, before any worker starts.

    Without a SECRET_KEY (``core.env.secret_key``) the master stops with one line
    and status 4. Left to the workers, each would fail on its own, and gunicorn's master,
    reaping several at once, prints a traceback of its own over the one line that matters.
    """
    from core.env import Env, secret_key

    env = Env()
    secret_key(env, debug=env.bool("DEBUG", False))


def post_worker_init(worker):
    """Start watching for requests over ``REQUEST_TIME_LIMIT``.

    Move everything loaded at start-up (Django, the app, the templates' modules) out of
    the garbage collector's reach (``gc.freeze``): those objects live as long as the
    worker, yet each full collection walked them all, hundreds of thousands, in the middle
    of some request. Python's documentation suggests it for forking servers; measured in
    BENCHMARKS.md "Move path".
    """
    import gc

    gc.freeze()
    threading.Thread(target=_watch_requests, args=(worker,), daemon=True).start()


def pre_request(worker, req):
    """Note when this thread's request started (server hook)."""
    _RUNNING[threading.get_ident()] = (time.monotonic(), f"{req.method} {req.path}")


def post_request(worker, req, environ, resp):
    """This thread's request is answered (server hook): it is no longer timed."""
    _RUNNING.pop(threading.get_ident(), None)


def overdue_request(now: float) -> str | None:
    """The request served longer than ``REQUEST_TIME_LIMIT`` at ``now``, if any."""
    for started, request in list(_RUNNING.values()):
        if now - started > REQUEST_TIME_LIMIT:
            return request
    return None


def stop_if_overdue(worker, now: float) -> bool:
    """Stop this worker gracefully if a request of it is overdue; whether it was."""
    request = overdue_request(now)
    if request is None:
        return False
    # A login link's path is a credential. gunicorn's handlers redact (ServerLogger), but
    # a --logger-class on the command line may replace them: the line is clean as written.
    from core.redaction import redact_text

    worker.log.error(
        "%s has run over %d s: stopping worker %s (the master starts another)",
        redact_text(request),
        REQUEST_TIME_LIMIT,
        os.getpid(),
    )
    os.kill(os.getpid(), signal.SIGTERM)  # gunicorn's graceful stop of one worker
    return True


def _watch_requests(worker):
    while not stop_if_overdue(worker, time.monotonic()):
        time.sleep(1)
