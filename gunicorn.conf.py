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

Command-line flags override these (``bench/api.py`` sets its own).
"""

import os

worker_class = "gthread"
workers = int(os.environ.get("GUNICORN_WORKERS", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "32"))


def on_starting(server):
    """Check the configuration in the master, before any worker starts.

    Without a SECRET_KEY (``piratz_site.env.secret_key``) the master stops with one line
    and status 4. Left to the workers, each would fail on its own, and gunicorn's master,
    reaping several at once, prints a traceback of its own over the one line that matters.
    """
    from piratz_site.env import Env, secret_key

    env = Env()
    secret_key(env, debug=env.bool("DEBUG", False))


def post_worker_init(worker):
    """Move everything loaded at start-up (Django, the app, the templates' modules) out of
    the garbage collector's reach (``gc.freeze``): those objects live as long as the
    worker, yet each full collection walked them all, hundreds of thousands, in the middle
    of some request. Python's documentation suggests it for forking servers; measured in
    BENCHMARKS.md "Move path".
    """
    import gc

    gc.freeze()
