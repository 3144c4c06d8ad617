"""Settings for the test suite: the real settings, with test-only defaults for secrets."""

import os

os.environ.setdefault("SECRET_KEY", "test-secret-key-not-for-production-" + "x" * 20)
# Celery reads this variable before its configuration, so a value here would win over the
# tests that point the app at a real broker (app.conf); the broker is set below instead.
os.environ["CELERY_BROKER_URL"] = ""

from .settings import *  # noqa: F403

# Tasks run in-process when sent, and the outbox sends on commit, so a unit test sees its
# emails in ``mailoutbox`` after its transaction. (Production never does either: a request
# must not wait on SMTP. See notifications.outbox._schedule_send.)
CELERY_TASK_ALWAYS_EAGER = True
OUTBOX_EAGER_SEND_ON_COMMIT = True
# No broker process in unit tests; tests about a real broker and worker configure the app.
CELERY_BROKER_URL = "memory://"
CELERY_BROKER_TRANSPORT_OPTIONS = {}
# Fast hashing: tests create many users; the production hashers stay in settings.py.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Whitenoise serves from the finders in tests; no collectstatic run is needed.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# Per-process memory, cleared around every test by tests/conftest.py (clearing the database
# cache would need a database in tests that have none); the tests of the shared counters
# (tests/accounts/test_throttling.py) switch to the database cache and Redis themselves.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# No throttling in general tests; tests of throttling override this explicitly.
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}  # noqa: F405

# SQLite: a file, not memory, so that concurrency tests' threads share one test database;
# one per process, so that two test runs on one checkout do not delete each other's.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}  # noqa: F405
# Bots move at once in tests (their tasks run only where a test sends them to a worker).
BOT_MOVE_DELAY_SECONDS = 0
# No news bus (even where CI sets CACHE_URL): the table streams poll the version, and the
# tests of the Redis bus (tests/web/test_table_stream*.py) configure it themselves.
TABLE_NEWS_URL = ""
