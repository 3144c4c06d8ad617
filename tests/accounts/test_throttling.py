"""Throttles: who the client is (forwarded headers only from trusted proxies), and the
login-link limit as one atomic counter shared by every process and thread."""

import ipaddress
import time
import uuid
from datetime import UTC, datetime

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from accounts.throttling import LoginLinkThrottle, add_to_counter
from piratz_site.proxies import ForwardedHeadersMiddleware, client_address
from tests.concurrency import at_once

from .test_login_link_api import URL, login_link_rate

PROXY = "10.0.0.1"
TRUSTED = [ipaddress.ip_network("10.0.0.0/24")]
DATABASE_CACHE = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "piratz_cache",
    }
}


def _request(remote: str, forwarded: str | None = None, **meta):
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().post("/", REMOTE_ADDR=remote, **meta)


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


# --- One counter, atomic --------------------------------------------------------------------


@pytest.fixture
def half_past_noon(time_machine):
    time_machine.move_to(datetime(2026, 1, 1, 12, 30, tzinfo=UTC), tick=False)
    return time_machine


def test_refused_requests_are_not_counted(half_past_noon):
    request = _request("203.0.113.9")
    with login_link_rate("2/hour"):
        answers = [LoginLinkThrottle().allow_request(request, None) for _ in range(5)]
        key = LoginLinkThrottle().get_cache_key(request, None)
    assert answers == [True, True, False, False, False]
    assert cache.get(f"{key}:{int(time.time() // 3600)}") == 2


def test_a_burst_at_a_windows_end_is_not_doubled_at_the_next_ones_start(half_past_noon):
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


def _ask_at_once(threads: int) -> list[bool]:
    """``threads`` simultaneous login-link throttle checks from one client address."""

    def ask() -> bool:
        return LoginLinkThrottle().allow_request(_request("203.0.113.9"), None)

    return at_once([ask] * threads)


@pytest.mark.django_db(transaction=True)
def test_simultaneous_requests_get_exactly_the_limit_with_the_database_cache():
    """The default without CACHE_URL; on PostgreSQL the real race, on SQLite its IMMEDIATE
    transactions."""
    with override_settings(CACHES=DATABASE_CACHE), login_link_rate("10/hour"):
        call_command("createcachetable", verbosity=0)
        cache.clear()
        answers = _ask_at_once(24)
    assert sorted(answers) == [False] * 14 + [True] * 10


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL")
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


def test_simultaneous_requests_get_exactly_the_limit_with_redis(redis_url):
    redis_cache = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            # Fresh keys for this run; not cache.clear(), which empties the whole Redis db.
            "KEY_PREFIX": f"test-throttling-{uuid.uuid4().hex}",
        }
    }
    with override_settings(CACHES=redis_cache), login_link_rate("10/hour"):
        answers = _ask_at_once(24)
    assert sorted(answers) == [False] * 14 + [True] * 10
