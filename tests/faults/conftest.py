"""Fixtures of the fault suite: the stack on the live PostgreSQL test database, players' keys.

Every test here is marked ``faults``. The stack's processes share the test's database, so
the suite needs PostgreSQL (it is skipped on SQLite, whose run CI makes second; the
PostgreSQL run covers it). A missing server binary is a failure in CI (``CI=true``).
"""

import os

import pytest
from django.db import connection

from accounts.models import ApiToken
from tests.factories import start_game
from tests.faults.stack import Stack, Table

# Whether a test's own call failed (its stacks then print their processes' output).
CALL_FAILED = pytest.StashKey[bool]()


def pytest_collection_modifyitems(items):
    for item in items:
        if "/tests/faults/" in str(item.fspath):
            item.add_marker(pytest.mark.faults)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.stash[CALL_FAILED] = report.failed
    return report


def require(condition: bool, why: str) -> None:
    """Skip locally, fail in CI, when a prerequisite of a fault test is missing."""
    if not condition:
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)


@pytest.fixture
def postgres_run():
    """Only in the PostgreSQL run: CI runs the suite twice, once is enough for this test."""
    if connection.vendor != "postgresql":
        pytest.skip("runs in the PostgreSQL run of the suite")


@pytest.fixture
def live_postgres(transactional_db):
    """The live test database, which the stack's processes share: PostgreSQL only."""
    if connection.vendor != "postgresql":
        pytest.skip("the stack's processes share the test database: PostgreSQL only")


@pytest.fixture
def stack(live_postgres, tmp_path, settings, request):
    """Start ``Stack(...)`` with ``stack(**options)``; stopped at the end, whatever happened.
    When the test failed, the end of each process's output is printed (pytest shows it
    under the failure)."""
    settings.GAMES_PER_USER_PER_DAY = settings.INVITATIONS_PER_USER_PER_DAY = 1000
    started: list[Stack] = []

    def start(*, worker: bool = True, beat: bool = True, web: bool = True, **options) -> Stack:
        the_stack = Stack(tmp_path, **options)
        started.append(the_stack)
        return the_stack.start(worker=worker, beat=beat, web=web)

    yield start
    for the_stack in started:
        if request.node.stash.get(CALL_FAILED, False):
            print(the_stack.log_tails())
        the_stack.stop()


@pytest.fixture
def table_of(anna, bert):
    """``table_of(stack)``: Anna and Bert's API clients on the stack's gunicorn."""
    keys = [ApiToken.issue(anna), ApiToken.issue(bert)]

    def make(the_stack: Stack) -> Table:
        return Table([the_stack.api(key) for key in keys])

    return make


@pytest.fixture
def two_player_games(anna, bert):
    """``two_player_games(n)``: n active games of Anna (seat 0) and Bert, at version 0."""

    def make(count: int) -> list:
        return [start_game([anna, bert], seed=seed).id for seed in range(count)]

    return make
