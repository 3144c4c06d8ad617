"""Settings for the test suite: the real settings, with test-only defaults for secrets."""

import os

os.environ.setdefault("SECRET_KEY", "test-secret-key-not-for-production-" + "x" * 20)
os.environ.setdefault("CELERY_BROKER_URL", "")

from .settings import *  # noqa: F403

# Fast hashing: tests create many users; the production hashers stay in settings.py.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Whitenoise serves from the finders in tests; no collectstatic run is needed.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# No throttling in general tests; tests of throttling override this explicitly.
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}  # noqa: F405

# SQLite: a file, not memory, so that concurrency tests' threads share one test database;
# one per process, so that two test runs on one checkout do not delete each other's.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}  # noqa: F405
