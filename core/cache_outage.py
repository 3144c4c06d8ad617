"""When the cache's Redis stops answering: callers that can do without it skip it a while.

Production keeps the throttle counters and the outbox's wake-up flag in the cache, on the
Redis that is also Celery's broker (docs/operating.md "Running on several machines"). Neither is
needed to play: without them the throttles let API requests through uncounted (and refuse
login links), and committed emails publish their own send task. ``redis_or_unavailable``
turns Redis's connection errors into ``CacheUnavailable``, and after one, keeps raising it
at once in this process for ``RETRY_SECONDS``: requests do not each wait on a refused or
timed-out connection (the cache's socket timeout is a second, piratz_site.settings), and
the log gets one line per outage from each process instead of one per request.
"""

import logging
import time
from contextlib import contextmanager

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

RETRY_SECONDS = 5.0


class CacheUnavailable(Exception):
    """The cache's Redis cannot be reached now (or failed to, less than RETRY_SECONDS ago)."""


class _Outage:
    """Per process: until when (``time.monotonic``) to leave the cache's Redis alone."""

    skip_until = 0.0  # a float's assignment is atomic: no lock between threads


@contextmanager
def redis_or_unavailable():
    """Run the block's Redis commands, or raise ``CacheUnavailable`` instead of Redis's
    connection and timeout errors; raise it without running the block while an outage
    found less than ``RETRY_SECONDS`` ago lasts. Other errors (a bug) pass unchanged."""
    if time.monotonic() < _Outage.skip_until:
        raise CacheUnavailable
    try:
        yield
    except (RedisConnectionError, RedisTimeoutError) as error:
        _Outage.skip_until = time.monotonic() + RETRY_SECONDS
        logger.warning(
            "The cache's Redis did not answer (%s): API requests pass the throttles "
            "uncounted, login links are refused, each email wakes its own send task; "
            "next try in %.0f s",
            error,
            RETRY_SECONDS,
        )
        raise CacheUnavailable from error


def forget_outage() -> None:
    """Try Redis again at the next call (tests: the retry time is per process)."""
    _Outage.skip_until = 0.0
