"""The throttles while the Redis holding their counters is gone (production keeps broker and
counters on one Redis): play goes on uncounted, login links are refused, nobody waits long.

Against a redis-server of the test's own, stopped and started again, and a socket that
accepts and never answers (a Redis behind a dead network path).
"""

import logging
import time

import pytest
from django.test import override_settings

from accounts.throttling import UserRateThrottle
from core.cache_outage import RETRY_SECONDS, forget_outage
from notifications.models import OutboundEmail
from tests.caches import redis_cache
from tests.factories import client_for, reveal_or_timeout, start_game
from tests.processes import SilentSmtpServer
from tests.servers import RedisServer
from tests.throttles import api_rates

from .test_login_link_api import URL
from .test_throttling import _request, _user

# As piratz_site.settings configures the Redis cache (tests/test_project.py checks it).
PRODUCTION_OPTIONS = {"socket_connect_timeout": 1, "socket_timeout": 1}


@pytest.fixture
def counters_redis():
    """A redis-server of this test's own holding the throttle counters (the default cache)."""
    server = RedisServer().start()
    try:
        with redis_cache(f"redis://127.0.0.1:{server.port}/0"):
            yield server
    finally:
        server.stop()


@pytest.mark.django_db
def test_while_the_counters_are_down_play_goes_on_and_login_links_wait(
    anna, bert, api_throttles, counters_redis, caplog
):
    game = start_game([anna, bert])
    api = client_for(anna)
    with api_rates(user="2/min", login_link="5/hour"):
        counters_redis.stop()
        with caplog.at_level(logging.WARNING, logger="core.cache_outage"):
            started = time.monotonic()
            reads = [api.get("/api/games/") for _ in range(3)]
            move = api.post(
                f"/api/games/{game.id}/moves/",
                {"version": 0, **reveal_or_timeout(game)},
                format="json",
            )
            link = client_for(None).post(URL, {"email": anna.email}, format="json")
            took = time.monotonic() - started
        warnings = [r for r in caplog.records if "did not answer" in r.message]

        # Back: counted again once the retry time is over (here: at once).
        counters_redis.start()
        forget_outage()
        counted = [api.get("/api/games/").status_code for _ in range(3)]

    # Over the rate of 2 a minute, and all of them pass: nothing counts them.
    assert [read.status_code for read in reads] == [200, 200, 200]
    assert move.status_code == 200, move.content
    game.refresh_from_db()
    assert game.version == 1
    # A login link is an email to an address the caller names: refused, not sent.
    assert link.status_code == 429
    assert link.json()["code"] == "throttled"
    assert link["Retry-After"] == str(int(RETRY_SECONDS))
    assert not OutboundEmail.objects.filter(to=anna.email, template="login_link").exists()
    assert took < 2  # a refused connection fails at once; nobody waits on Redis
    # One line for the outage, not one per request: the others did not try Redis.
    assert len(warnings) == 1
    assert counted == [200, 200, 429]


@pytest.mark.django_db
def test_a_redis_that_never_answers_costs_one_request_a_second_then_none(api_throttles):
    silent = SilentSmtpServer()  # accepts, never answers: as a Redis behind a dead path
    config = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{silent.port}/0",
            "OPTIONS": PRODUCTION_OPTIONS,
        }
    }
    try:
        with override_settings(CACHES=config), api_rates(user="2/min"):
            timings = []
            for _ in range(3):
                started = time.monotonic()
                allowed = UserRateThrottle().allow_request(
                    _request("203.0.113.9", user=_user(1)), None
                )
                timings.append((allowed, time.monotonic() - started))
    finally:
        silent.close()

    (first_allowed, first), *rest = timings
    assert first_allowed and 0.9 < first < 3  # the socket timeout, not redis-py's 5 s
    assert all(allowed and seconds < 0.1 for allowed, seconds in rest)
    assert silent.connections == 1  # the others did not try again
