"""Throttles: who the client is (forwarded headers only from trusted proxies), and the
sliding-window counters of the API and login-link throttles: exact under concurrency on
every cache backend, one round trip per allowed request on Redis."""

import contextlib
import ipaddress
import threading
import time
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.core.cache.backends.redis import RedisCache
from django.core.management import call_command
from django.http import HttpResponse
from django.test import RequestFactory, override_settings
from redis.connection import AbstractConnection

from accounts.throttling import (
    AnonRateThrottle,
    LoginLinkThrottle,
    UserRateThrottle,
    add_to_counter,
    counter_client,
)
from core.proxies import ForwardedHeadersMiddleware, client_address
from games.api.views import game_detail
from tests.caches import redis_cache
from tests.concurrency import at_once
from tests.factories import client_for, start_game
from tests.throttles import api_rates

from .test_login_link_api import URL, login_link_rate

PROXY = "10.0.0.1"
TRUSTED = [ipaddress.ip_network("10.0.0.0/24")]
DATABASE_CACHE = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "piratz_cache",
    }
}


def _request(remote: str, forwarded: str | None = None, *, user=None, **meta):
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    request = RequestFactory().post("/", REMOTE_ADDR=remote, **meta)
    request.user = user or AnonymousUser()
    return request


def _user(pk: int):
    """What the user throttle asks of ``request.user``, without a database row."""
    return SimpleNamespace(pk=pk, is_authenticated=True)


@pytest.fixture(
    params=[
        "locmem",
        # Transactions of their own, which threads see (a test's atomic block they would not).
        pytest.param("database", marks=pytest.mark.django_db(transaction=True)),
        "redis",
    ]
)
def any_cache(request):
    """The default cache on each backend the counters run on: the tests' in-memory one,
    Django's database cache (the default without CACHE_URL) and Redis (production)."""
    if request.param == "locmem":
        yield
    elif request.param == "database":
        with override_settings(CACHES=DATABASE_CACHE):
            call_command("createcachetable", verbosity=0)
            cache.clear()
            yield
    else:
        with redis_cache(request.getfixturevalue("redis_url")):
            yield


# --- Who the client is ---------------------------------------------------------------------


def test_without_trusted_proxies_the_forwarded_header_is_ignored(settings):
    settings.TRUSTED_PROXIES = []
    assert client_address(_request("203.0.113.9", "198.51.100.1")) == "203.0.113.9"


@pytest.mark.parametrize(
    ("remote", "forwarded", "client"),
    [
        # The client wrote "1.1.1.1"; our proxy appended the address it saw.
        (PROXY, "1.1.1.1, 203.0.113.9", "203.0.113.9"),
        # Two of our proxies in a row: skip both.
        (PROXY, "1.1.1.1, 203.0.113.9, 10.0.0.7", "203.0.113.9"),
        # Nothing forwarded: the proxy itself.
        (PROXY, "", PROXY),
        # Every hop is ours: the left-most.
        (PROXY, "10.0.0.5, 10.0.0.7", "10.0.0.5"),
        # Not from a proxy of ours: the header is the client's own invention.
        ("203.0.113.9", "1.1.1.1", "203.0.113.9"),
    ],
)
def test_the_client_is_the_right_most_hop_that_is_not_a_trusted_proxy(
    settings, remote, forwarded, client
):
    settings.TRUSTED_PROXIES = TRUSTED
    assert client_address(_request(remote, forwarded)) == client


@pytest.mark.django_db
def test_a_new_fake_forwarded_address_per_request_does_not_escape_the_throttle(api_client):
    with login_link_rate("2/hour"):
        answers = [
            api_client.post(
                URL,
                {"email": "anna@example.com"},
                format="json",
                HTTP_X_FORWARDED_FOR=f"198.51.100.{n}",
            ).status_code
            for n in range(4)
        ]
    assert answers == [202, 202, 429, 429]


@pytest.mark.django_db
def test_behind_a_trusted_proxy_each_client_has_its_own_budget(api_client, settings):
    settings.TRUSTED_PROXIES = TRUSTED

    def ask(client_ip: str, spoofed: str = "") -> int:
        return api_client.post(
            URL,
            {"email": "anna@example.com"},
            format="json",
            REMOTE_ADDR=PROXY,
            HTTP_X_FORWARDED_FOR=f"{spoofed}{client_ip}",
        ).status_code

    with login_link_rate("1/hour"):
        assert ask("203.0.113.1") == 202
        assert ask("203.0.113.1", spoofed="192.0.2.77, ") == 429  # spoofed left part: same one
        assert ask("203.0.113.2") == 202


@pytest.mark.parametrize(
    ("remote", "secure"),
    [(PROXY, True), ("203.0.113.9", False)],
)
def test_the_https_header_counts_only_from_a_trusted_proxy(settings, remote, secure):
    settings.TRUSTED_PROXIES = TRUSTED
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    middleware = ForwardedHeadersMiddleware(lambda request: HttpResponse(request.is_secure()))
    request = _request(remote, "203.0.113.9", HTTP_X_FORWARDED_PROTO="https")
    assert middleware(request).content == str(secure).encode()
    assert ("HTTP_X_FORWARDED_FOR" in request.META) is secure


# --- The API's throttles ---------------------------------------------------------------------


@pytest.fixture
def half_past_noon(time_machine):
    time_machine.move_to(datetime(2026, 1, 1, 12, 30, tzinfo=UTC), tick=False)
    return time_machine


@pytest.mark.django_db
def test_the_user_throttle_refuses_the_request_over_the_limit_with_a_retry_after(
    anna, bert, api_throttles, half_past_noon
):
    with api_rates(user="3/min"):
        answers = [client_for(anna).get("/api/games/") for _ in range(4)]
        other = client_for(bert).get("/api/games/")
    assert [answer.status_code for answer in answers] == [200, 200, 200, 429]
    refused = answers[-1]
    assert refused.json()["code"] == "throttled"
    # At the start of a minute with nothing carried over: the end of this one.
    assert refused["Retry-After"] == "60"
    assert other.status_code == 200  # each user has a budget of their own


@pytest.mark.django_db
def test_function_views_are_throttled_too(anna, bert, api_throttles, half_past_noon):
    # The game GET is an @api_view: DRF gave its class the default throttles when this
    # module imported it, before the fixture ran (as after any earlier test's request).
    assert game_detail.cls.throttle_classes == [AnonRateThrottle, UserRateThrottle]
    game = start_game([anna, bert])
    with api_rates(user="2/min"):
        answers = [client_for(anna).get(f"/api/games/{game.id}/") for _ in range(3)]
    assert [answer.status_code for answer in answers] == [200, 200, 429]


def test_the_user_throttle_counts_per_user_wherever_they_call_from(half_past_noon):
    def ask(remote: str, user=None) -> bool:
        return UserRateThrottle().allow_request(_request(remote, user=user), None)

    with api_rates(user="2/min"):
        by_user = [ask(f"203.0.113.{n}", _user(1)) for n in range(3)]
        assert ask("203.0.113.9", _user(2))
        by_address = [ask("198.51.100.1") for _ in range(3)]  # anonymous: per address
    assert by_user == [True, True, False]
    assert by_address == [True, True, False]


def test_the_anonymous_throttle_counts_only_anonymous_callers(half_past_noon):
    def ask(user=None) -> bool:
        return AnonRateThrottle().allow_request(_request("203.0.113.9", user=user), None)

    with api_rates(anon="2/min"):
        anonymous = [ask() for _ in range(3)]
        signed_in = [ask(_user(1)) for _ in range(3)]
        assert AnonRateThrottle().get_cache_key(_request("1.2.3.4", user=_user(1)), None) is None
    assert anonymous == [True, True, False]
    assert signed_in == [True, True, True]


def test_a_scope_rated_none_is_not_throttled():
    with api_rates(user=None):
        assert all(
            UserRateThrottle().allow_request(_request("203.0.113.9"), None) for _ in range(5)
        )


# --- One counter, atomic, on every backend -----------------------------------------------------


def test_refused_requests_are_not_counted(any_cache, half_past_noon):
    request = _request("203.0.113.9")
    with login_link_rate("2/hour"):
        answers = [LoginLinkThrottle().allow_request(request, None) for _ in range(5)]
        key = LoginLinkThrottle().get_cache_key(request, None)
        assert cache.get(f"{key}:{int(time.time() // 3600)}") == 2
    assert answers == [True, True, False, False, False]


def test_a_burst_at_a_windows_end_is_not_doubled_at_the_next_ones_start(any_cache, half_past_noon):
    request = _request("203.0.113.9")

    def ask() -> tuple[bool, float | None]:
        throttle = LoginLinkThrottle()
        return throttle.allow_request(request, None), throttle.wait()

    with login_link_rate("2/hour"):
        half_past_noon.move_to(datetime(2026, 1, 1, 12, 59, tzinfo=UTC), tick=False)
        assert [ask()[0], ask()[0]] == [True, True]
        half_past_noon.move_to(datetime(2026, 1, 1, 13, 1, tzinfo=UTC), tick=False)
        allowed, wait = ask()
        assert not allowed and 0 < wait <= 59 * 60
        # Three quarters through the next hour, a quarter of the old burst still counts.
        half_past_noon.move_to(datetime(2026, 1, 1, 13, 45, tzinfo=UTC), tick=False)
        assert [ask()[0], ask()[0]] == [True, False]


@pytest.mark.parametrize(
    ("throttle", "rates"),
    [
        (LoginLinkThrottle, login_link_rate("10/hour")),
        (UserRateThrottle, api_rates(user="10/min")),
    ],
    ids=["login_link", "user"],
)
def test_simultaneous_requests_get_exactly_the_limit(any_cache, throttle, rates):
    """DRF's read-decide-write let more pass; a counter lets only the first ten numbers pass.
    On PostgreSQL the database cache has the real race, on SQLite its IMMEDIATE
    transactions."""

    def ask() -> bool:
        return throttle().allow_request(_request("203.0.113.9", user=_user(1)), None)

    with rates:
        answers = at_once([ask] * 24)
    assert sorted(answers) == [False] * 14 + [True] * 10


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_database_counter_adds_every_increment_under_contention_on_postgresql():
    with override_settings(CACHES=DATABASE_CACHE):
        call_command("createcachetable", verbosity=0)
        cache.clear()

        def add():
            for _ in range(5):
                add_to_counter("counter:test", 1, timeout=60)

        at_once([add] * 16)
        assert cache.get("counter:test") == 80


# --- Redis: one round trip -------------------------------------------------------------------


@contextlib.contextmanager
def _round_trips():
    """The list of commands this thread sends to Redis meanwhile, one entry per round
    trip (a pipeline is sent as one)."""
    sent: list = []
    thread = threading.get_ident()
    send = AbstractConnection.send_packed_command

    def counted(self, command, check_health=True):
        if threading.get_ident() == thread:  # not another test's thread, should one run
            sent.append(command)
        return send(self, command, check_health)

    AbstractConnection.send_packed_command = counted
    try:
        yield sent
    finally:
        AbstractConnection.send_packed_command = send


def test_on_redis_an_allowed_request_costs_one_round_trip(redis_url, half_past_noon):
    request = _request("203.0.113.9", user=_user(1))
    with redis_cache(redis_url) as redis, api_rates(user="2/min"):
        # Connecting costs round trips of its own (HELLO, CLIENT SETINFO), once per
        # connection: another user's request opens it.
        UserRateThrottle().allow_request(_request("203.0.113.9", user=_user(2)), None)
        key = UserRateThrottle().get_cache_key(request, None)
        counter = f"{key}:{int(time.time() // 60)}"
        client = counter_client()
        costs = []
        for _ in range(2):
            with _round_trips() as sent:
                assert UserRateThrottle().allow_request(request, None)
            costs.append(len(sent))
        # Before a refusal, whose give-back would set an expiry too.
        ttl = client.ttl(redis.make_and_validate_key(counter))
        with _round_trips() as sent:
            assert not UserRateThrottle().allow_request(request, None)
        costs.append(len(sent))
        # Django reads the counter that INCR wrote: ints are stored unpickled.
        assert redis.get(counter) == 2
    # Allowed: GET, INCR, EXPIRE in one pipeline. Refused: one more, to give it back.
    assert costs == [1, 1, 2]
    assert 60 < ttl <= 120  # two periods: read as the previous window in the next one


def test_on_redis_the_previous_window_is_read_as_django_wrote_it(redis_url, half_past_noon):
    request = _request("203.0.113.9", user=_user(1))
    with redis_cache(redis_url) as redis, api_rates(user="4/min"):
        key = UserRateThrottle().get_cache_key(request, None)
        redis.set(f"{key}:{int(time.time() // 60) - 1}", 4)
        # Half a minute in: half of the previous minute's four still counts.
        half_past_noon.move_to(datetime(2026, 1, 1, 12, 30, 30, tzinfo=UTC), tick=False)
        answers = [UserRateThrottle().allow_request(request, None) for _ in range(3)]
    assert answers == [True, True, False]


def test_on_redis_the_counters_use_only_public_apis(redis_url, half_past_noon, monkeypatch):
    """Django's and redis-py's public APIs only: the counters never reach into the cache
    backend's private client (``RedisCache._cache``), which any Django upgrade may change."""

    def private(self):
        raise AssertionError("RedisCache._cache is Django's own")

    request = _request("203.0.113.9", user=_user(1))
    with redis_cache(redis_url), api_rates(user="1/min"):
        monkeypatch.setattr(RedisCache, "_cache", property(private))
        answers = [UserRateThrottle().allow_request(request, None) for _ in range(2)]
    assert answers == [True, False]
