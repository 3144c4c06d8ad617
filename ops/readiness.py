"""Can this process serve? The database, the cache and the broker, each tried briefly.

``check_all()`` answers ``{"database": "ok", "cache": "unreachable", "broker": "ok"}``.
Each check is bounded by a short timeout and reports only "ok" or "unreachable": the
error itself may name a host or carry a password in a URL, so it goes to the log as its
type only.
"""

import logging
import uuid
from collections.abc import Callable

from celery import current_app
from django.core.cache import cache
from django.db import connection

logger = logging.getLogger(__name__)

OK = "ok"
UNREACHABLE = "unreachable"
# Seconds a probe waits for the broker: under a load balancer's probe interval.
BROKER_TIMEOUT_SECONDS = 2


def check_database() -> None:
    """``SELECT 1`` on the default database."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_cache() -> None:
    """Write a short-lived random value to the cache and read it back.

    Calls the cache directly, not through ``cache_outage``: the probe must see Redis as it
    is now, not as a request saw it seconds ago.
    """
    key = "ops:readyz"
    value = uuid.uuid4().hex
    cache.set(key, value, timeout=10)
    if cache.get(key) != value:
        raise RuntimeError("the cache did not keep a value")


def check_broker() -> None:
    """Connect to Celery's broker (the connection tasks are published on), once: the
    project's Celery app, which ``piratz_site`` makes the current one (ops lies below it).

    Under ``make run`` the broker is the filesystem transport, which connects to its
    folders: ready. Redis and AMQP get ``BROKER_TIMEOUT_SECONDS`` to answer.
    """
    timeouts = {
        "socket_connect_timeout": BROKER_TIMEOUT_SECONDS,
        "socket_timeout": BROKER_TIMEOUT_SECONDS,
    }
    with current_app.connection_for_write(
        connect_timeout=BROKER_TIMEOUT_SECONDS, transport_options=timeouts
    ) as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, timeout=BROKER_TIMEOUT_SECONDS)


CHECKS: dict[str, Callable[[], None]] = {
    "database": check_database,
    "cache": check_cache,
    "broker": check_broker,
}


def check_all() -> dict[str, str]:
    """Run every check; each one's outcome: ``"ok"`` or ``"unreachable"``."""
    outcomes = {}
    for name, check in CHECKS.items():
        try:
            check()
        except Exception as error:  # whatever the backend raises, the answer is the same
            logger.warning("Readiness: the %s is unreachable (%s)", name, type(error).__name__)
            outcomes[name] = UNREACHABLE
        else:
            outcomes[name] = OK
    return outcomes
