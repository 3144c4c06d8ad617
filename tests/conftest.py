"""Fixtures shared by the whole suite; they describe people and services, not tables."""

import fcntl
import hashlib
import os
import socket
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from accounts.models import User
from games.models import Game
from tests.factories import (
    TOY_PACKAGE,
    make_user,
    sign_in_verified,
    start_game,
    start_toy_game,
)

# The fixtures that give a test the database (pytest-django's, and the live server's), and
# the fault suite's ``postgres_run``, which keeps its test to the PostgreSQL pass.
DATABASE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "live_server",
        "postgres_run",
    }
)


# Markers of the tests that take seconds to a minute each (see pytest_collection_modifyitems).
LONG_MARKERS = ("slow", "faults", "browser", "playthrough")


def pytest_collection_modifyitems(items):
    """``@pytest.mark.postgres("why")``: the test needs PostgreSQL (row locks, real
    concurrency); in the suite's SQLite run it is skipped, saying why.

    Every test that uses no database is marked ``no_database``: its outcome cannot depend
    on which database the suite runs on, so CI runs it in one of its two passes only
    (``.ci/run``; docs/testing.md). Every test of ``tests/browser/`` is marked ``browser``
    (CI runs them in its SQLite pass only), whether or not its file says so."""
    from django.db import connection

    for item in items:
        if "browser" in item.path.relative_to(item.config.rootpath).parts[:2]:
            item.add_marker(pytest.mark.browser)
        uses_database = item.get_closest_marker("django_db") is not None or bool(
            DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
        )
        if not uses_database:
            item.add_marker(pytest.mark.no_database)
    # The long tests first (processes, browsers, whole games): with two workers stealing
    # each other's remaining tests, a run then ends on short ones instead of one worker
    # finishing a minute-long test while the other sits idle (docs/testing.md).
    items.sort(key=lambda item: not any(item.get_closest_marker(m) for m in LONG_MARKERS))
    if connection.vendor == "postgresql":
        return
    for item in items:
        if (marker := item.get_closest_marker("postgres")) is not None:
            why = f"needs PostgreSQL: {marker.args[0]}" if marker.args else "needs PostgreSQL"
            item.add_marker(pytest.mark.skip(reason=why))


@pytest.fixture(autouse=True)
def _eager_results_readable():
    """A test may read an eager task's result (``.delay().get()``). An embedded Celery
    worker (``start_worker``: tests/notifications/test_celery_worker.py) marks the whole
    process as a worker, where such a read would block inside a task, and the mark can
    outlive the worker: a later test's ``get()`` then refused, depending on the order."""
    from celery.result import allow_join_result

    with allow_join_result():
        yield


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in English: a request answered in German (LocaleMiddleware) leaves
    German active in the thread, and a later test's own describe() calls would follow it."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Throttles and rate limits count in the cache: each test starts from zero, with no
    Redis outage remembered from another test (core.cache_outage)."""
    from django.core.cache import cache

    from core.cache_outage import forget_outage

    forget_outage()
    cache.clear()
    yield
    cache.clear()
    forget_outage()


def _reachable(url: str) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname, parts.port or 6379), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture
def redis_url():
    """A real Redis for broker tests: TEST_REDIS_URL, skipped locally when unreachable.

    In CI (CI=true) an unreachable Redis is a failure, not a skip: CI must prove the
    real thing works. The tests using it share its one database (they purge it, and
    their workers read its one queue), so under ``pytest -n`` they take turns: each
    holds a lock on that URL until it ends.
    """
    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    if not _reachable(url):
        if os.environ.get("CI") == "true":
            pytest.fail(f"Redis at {url} is not reachable in CI")
        pytest.skip(f"Redis at {url} is not reachable")
    name = hashlib.sha256(url.encode()).hexdigest()[:16]
    with open(Path(tempfile.gettempdir()) / f"piratz-test-redis-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield url


# --- People ------------------------------------------------------------------------------


@pytest.fixture
def anna(db) -> User:
    """The host: creates games and sits in seat 0."""
    return make_user("anna@example.com", display_name="Anna")


@pytest.fixture
def bert(db) -> User:
    return make_user("bert@example.com", display_name="Bert")


@pytest.fixture
def carla(db) -> User:
    return make_user("carla@example.com")


@pytest.fixture
def dirk(db) -> User:
    return make_user("dirk@example.com")


@pytest.fixture
def outsider(db) -> User:
    """Somebody with an account who is not seated at the game."""
    return make_user("olga@example.com")


@pytest.fixture
def moderator(db) -> User:
    return make_user("mod@example.com", is_staff=True)


@pytest.fixture
def moderator_client(client, moderator):
    """The test client signed in to /admin/ as the moderator, password and TOTP verified."""
    moderator.is_superuser = True
    moderator.save()
    return sign_in_verified(client, moderator)


@pytest.fixture
def admin_client(client, admin_user):
    """pytest-django's ``admin_client``, with the second factor the admin site requires."""
    return sign_in_verified(client, admin_user)


@pytest.fixture
def players(anna, bert, carla, dirk) -> list[User]:
    return [anna, bert, carla, dirk]


@pytest.fixture
def game(anna, bert, carla) -> Game:
    """An active 3-player game, seed 7: Anna (seat 0) is to move."""
    return start_game([anna, bert, carla])


# --- The toy game: the platform's fixture game ---------------------------------------------


@pytest.fixture
def toy_games(settings):
    """The toy tic-tac-toe (tests/toygame) is one of ``GAME_PACKAGES`` for this test: added
    as any game is, by the setting alone. pytest-django restores the setting afterwards,
    and the catalogue (listening to ``setting_changed``) forgets the toy with it."""
    settings.GAME_PACKAGES = [*settings.GAME_PACKAGES, TOY_PACKAGE]


@pytest.fixture
def toy_game(toy_games, anna, bert) -> Game:
    """An active tic-tac-toe game: Anna (seat 0, X) is to move, Bert holds seat 1.

    For tests of what the platform does with any game (versions, deadlines, the outbox,
    access, webhooks...): moves by ``tests.factories.toy_move`` / ``play_toy_moves``."""
    return start_toy_game([anna, bert])
