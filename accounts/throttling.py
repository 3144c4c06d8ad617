"""Request throttles: a sliding-window counter per client (user or address) shared by every
process through the cache, for the API (``UserRateThrottle``, ``AnonRateThrottle`` and
their scoped subclasses), for asking for login links (``LoginLinkThrottle``) and for
failed authentication per address (``AuthFailureThrottleMiddleware``)."""

import functools
import hashlib
import math
import re
import time
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

import redis
from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.db import DatabaseCache
from django.core.cache.backends.redis import RedisCache
from django.core.exceptions import ImproperlyConfigured
from django.db import connections, router, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from rest_framework import throttling
from rest_framework.settings import api_settings

from core.cache_outage import RETRY_SECONDS, CacheUnavailable, redis_or_unavailable
from core.proxies import client_address

SCOPE = "login_link"
API_PREFIX = "/api/"


class _ByClientAddress:
    """DRF reads ``X-Forwarded-For`` from anybody; we only from ``TRUSTED_PROXIES``."""

    def get_ident(self, request) -> str:
        return client_address(request)


class CountingRateThrottle(_ByClientAddress, throttling.SimpleRateThrottle):
    """At most ``rate`` requests per client in any span of one period, up to the sliding
    window's approximation; exact under concurrency (however many arrive at once, no more
    than the budget pass); refused requests are not counted.

    The window slides: each period is a fixed window with a counter, and the previous
    window's count weighs in by the share of it that still lies within one period (a
    burst at a window's end cannot be doubled at the start of the next; the estimate
    assumes the previous window's requests were spread evenly over it). Unlike DRF's
    throttles, which read a request history, decide, then write it back (so
    simultaneous requests all pass: 12 of 10), each request takes a number from an
    atomic counter and only numbers within the budget pass. A refused request gives its
    number back, so hammering a throttle does not prolong the wait.

    Costs one cache round trip per allowed request on Redis (``count_request``), one
    more on refusal. Subclasses give ``scope`` and ``get_cache_key`` (None: not
    throttled), as for DRF's ``SimpleRateThrottle``.

    While Redis cannot be reached (``CacheUnavailable``), a throttle with
    ``open_without_counter`` lets requests through uncounted, so that a Redis outage
    does not stop play (the moves themselves need only PostgreSQL); one without it
    refuses them, with a wait of ``cache_outage.RETRY_SECONDS``.
    """

    open_without_counter = True
    # Set by SimpleRateThrottle.__init__ from the rate (parse_rate); its stubs omit them.
    num_requests: int
    duration: int

    def get_rate(self) -> str | None:
        # Read per request rather than at import (DRF's default), so overridden settings apply.
        scope = getattr(self, "scope", None)
        if scope is None:
            raise ImproperlyConfigured(f"{type(self).__name__} sets neither rate nor scope.")
        try:
            # The stubs type the rates as numbers; DRF's are strings such as "10/min".
            return api_settings.DEFAULT_THROTTLE_RATES[scope]  # type: ignore[return-value]
        except KeyError:
            raise ImproperlyConfigured(
                f"No throttle rate set for the {self.scope!r} scope."
            ) from None

    def allow_request(self, request, view) -> bool:
        self._wait = None
        if self.rate is None:  # a scope rated None in the settings: unlimited, as in DRF
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        period = self.duration
        window, elapsed = divmod(time.time(), period)
        # Two periods: the count is still read as the previous window's in the next one.
        timeout = 2 * period
        try:
            previous, taken = count_request(key, int(window), timeout=timeout)
        except CacheUnavailable:
            if self.open_without_counter:
                return True
            self._wait = RETRY_SECONDS
            return False
        carried = previous * (1 - elapsed / period)
        if taken + carried <= self.num_requests:
            return True
        uncount_request(key, int(window), timeout=timeout)
        # Until the carried share of the previous window has shrunk enough, or this
        # window ends, whichever is first.
        over = taken + carried - self.num_requests
        until_decay = over / previous * period if previous else period
        self._wait = max(1.0, min(period - elapsed, until_decay))
        return False

    def wait(self) -> float | None:
        """Seconds until a refused request's client may try again (DRF's Retry-After)."""
        return getattr(self, "_wait", None)


class AnonRateThrottle(CountingRateThrottle, throttling.AnonRateThrottle):
    """``DEFAULT_THROTTLE_RATES["anon"]`` per client address, for anonymous callers only
    (DRF's scope and cache key: None for authenticated users)."""


class UserRateThrottle(CountingRateThrottle, throttling.UserRateThrottle):
    """``DEFAULT_THROTTLE_RATES["user"]`` per user, per client address for anonymous
    callers (DRF's scope and cache key). Subclasses with a scope of their own keep
    separate budgets."""


class LoginLinkThrottle(CountingRateThrottle):
    """Asking for login links: ``DEFAULT_THROTTLE_RATES["login_link"]`` per client address.

    One budget per address covers both ways of asking (API and web form), whoever is
    logged in. Closed while the counters are unreachable: each link is an email to an
    address the caller chooses, the abuse this throttle exists to stop.
    """

    open_without_counter = False

    scope = SCOPE

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


def count_request(key: str, window: int, *, timeout: int) -> tuple[int, int]:
    """Count one request in fixed window ``window`` of the counter ``key``, atomically:
    ``(the previous window's count, this window's count including this request)``.

    A window's counter lives ``timeout`` seconds from its first request. On Redis this is
    one round trip: a pipeline of GET (previous window), INCR (this one; a missing key
    starts from 0) and EXPIRE NX (the expiry only for a new key, so later requests do
    not push it back; and a key left without one by a pipeline cut off after INCR gets
    it from the next). The pipeline needs no MULTI: only the INCR must be atomic (it
    hands out the numbers), and the previous window's count only weighs an estimate.
    Other backends take ``add_to_counter`` and a ``get``: several round trips, as correct.

    Raises ``CacheUnavailable`` when Redis cannot be reached (connection refused or
    timed out), and then at once, without trying, for a while (``core.cache_outage``).
    """
    current_key, previous_key = f"{key}:{window}", f"{key}:{window - 1}"
    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        previous = backend.get(previous_key, 0)
        return previous, add_to_counter(current_key, 1, timeout=timeout)
    # The keys Django would use (prefix, version), so cache.get() reads these counters;
    # Django stores ints unpickled, so INCR and GET see plain integers.
    current_key = backend.make_and_validate_key(current_key)
    previous_key = backend.make_and_validate_key(previous_key)
    # The previous window from the write server too: it holds the counters (a replica
    # may lag).
    pipeline = counter_client().pipeline(transaction=False)
    pipeline.get(previous_key)
    pipeline.incr(current_key)
    pipeline.expire(current_key, timeout, nx=True)
    with redis_or_unavailable():
        previous, taken, _ = pipeline.execute()
    return int(previous or 0), taken


def uncount_request(key: str, window: int, *, timeout: int) -> None:
    """Take back a request ``count_request`` counted in ``window`` (it was refused)."""
    current_key = f"{key}:{window}"
    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        add_to_counter(current_key, -1, timeout=timeout)
        return
    current_key = backend.make_and_validate_key(current_key)
    pipeline = counter_client().pipeline(transaction=False)
    pipeline.decr(current_key)
    # Should the key have expired meanwhile, DECR made a new one: it must expire too.
    pipeline.expire(current_key, timeout, nx=True)
    # The request is refused either way; had Redis kept the count, it expires.
    with suppress(CacheUnavailable), redis_or_unavailable():
        pipeline.execute()


def counter_client() -> redis.Redis:
    """A redis-py client of the default cache's write server (the first of its
    ``LOCATION``), with the cache's ``OPTIONS`` as connection options.

    The counters need a pipeline, which Django's cache API does not offer, so they talk
    to the same server through redis-py's own public API. Made once per configuration
    and process: redis-py pools the connections, is thread-safe, and opens new ones in a
    forked child (gunicorn's ``--preload``).
    """
    config: dict[str, Any] = settings.CACHES["default"]
    location = config["LOCATION"]
    servers = re.split("[;,]", location) if isinstance(location, str) else location
    return _redis_client(servers[0], tuple(sorted(config.get("OPTIONS", {}).items())))


@functools.lru_cache(maxsize=8)
def _redis_client(url: str, options: tuple) -> redis.Redis:
    return redis.Redis.from_url(url, **dict(options))


def add_to_counter(key: str, delta: int, *, timeout: float) -> int:
    """Add ``delta`` to the integer at ``key`` in the default cache, atomically; the new value.

    A missing key starts from 0 and lives ``timeout`` seconds. Redis (``INCR``) and the
    in-memory cache (a lock) increment atomically. Django's database cache reads and
    writes back, so there the read and write run in one transaction that holds a lock
    for the key: SQLite's IMMEDIATE transactions serialise writers anyway, PostgreSQL
    takes an advisory lock.
    """
    backend = caches["default"]
    if isinstance(backend, DatabaseCache):
        return _add_in_database(backend, key, delta, timeout)
    cache.add(key, 0, timeout=timeout)
    try:
        return cache.incr(key, delta)
    except ValueError:  # expired between add and incr
        cache.add(key, 0, timeout=timeout)
        return cache.incr(key, delta)


def _add_in_database(backend: DatabaseCache, key: str, delta: int, timeout: float) -> int:
    alias = router.db_for_write(backend.cache_model_class)
    with transaction.atomic(using=alias):
        connection = connections[alias]
        if connection.vendor == "postgresql":
            digest = hashlib.sha256(f"cache-counter:{key}".encode()).digest()
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_advisory_xact_lock(%s)",
                    [int.from_bytes(digest[:8], "big", signed=True)],
                )
        value = backend.get(key, 0) + delta
        backend.set(key, value, timeout=timeout)
    return value


def login_link_wait(request: HttpRequest) -> float | None:
    """For plain Django views: None if this request may ask for a link (and counts it), else
    the seconds until it may."""
    throttle = LoginLinkThrottle()
    if throttle.allow_request(request, None):
        return None
    return throttle.wait() or 0.0


# --- Failed authentication, counted per client address --------------------------------------
#
# Credentials are tried against the API with no other limit: the API throttles run after
# authentication and permissions (DRF), so a 401 never reaches them. This counts the
# 401 answers per client address instead and, once an address is over the limit, answers
# its failed authentications 429 instead of 401. Requests whose credentials are valid are
# served as ever: many people share one address (a campus or carrier NAT, an office
# proxy), and one guesser among them must not lock out every program behind it. Keys are
# 256 random bits (``ApiToken.create_for``), so no rate of guessing finds one; the limit
# tells a misbehaving client to back off (``Retry-After``), and only wrong keys meet it.

AUTH_FAILURE_KEY = "auth-failures:%s"


@dataclass(frozen=True)
class AuthFailureLimit:
    """At most ``failures`` failed authentications per client address in any ``seconds``."""

    failures: int
    seconds: int

    @classmethod
    def from_settings(cls) -> "AuthFailureLimit":
        return cls(
            settings.API_AUTH_FAILURES_PER_ADDRESS, 60 * settings.API_AUTH_FAILURE_WINDOW_MINUTES
        )


def auth_failure_wait(address: str, now: float | None = None) -> float | None:
    """None while ``address`` is under the failed-authentication limit, else the seconds
    until it is under again (a sliding window, as ``CountingRateThrottle``'s).

    Reads only. None too while the cache's Redis cannot be reached: play goes on.
    """
    limit = AuthFailureLimit.from_settings()
    window, elapsed = divmod(time.time() if now is None else now, limit.seconds)
    current_key, previous_key = _auth_failure_keys(address, int(window))
    try:
        with redis_or_unavailable():
            counts = cache.get_many([current_key, previous_key])
    except CacheUnavailable:
        return None
    current, previous = counts.get(current_key, 0), counts.get(previous_key, 0)
    carried = previous * (1 - elapsed / limit.seconds)
    if current + carried < limit.failures:
        return None
    # Until enough of the previous window's share has slid out, or this window ends.
    over = current + carried - limit.failures
    until_decay = over / previous * limit.seconds if previous else limit.seconds
    return max(1.0, min(limit.seconds - elapsed, until_decay))


def count_auth_failure(address: str, now: float | None = None) -> None:
    """Count one failed authentication from ``address`` (public cache API: add, incr).

    Uncounted while the cache's Redis cannot be reached.
    """
    limit = AuthFailureLimit.from_settings()
    window = int((time.time() if now is None else now) // limit.seconds)
    current_key, _previous = _auth_failure_keys(address, window)
    # Two periods: the count is still read as the previous window's in the next one.
    with suppress(CacheUnavailable), redis_or_unavailable():
        add_to_counter(current_key, 1, timeout=2 * limit.seconds)


def _auth_failure_keys(address: str, window: int) -> tuple[str, str]:
    key = AUTH_FAILURE_KEY % address
    return f"{key}:{window}", f"{key}:{window - 1}"


class AuthFailureThrottleMiddleware:
    """Under ``/api/``: each 401 answer counts against the client address
    (``client_address``, which honours ``TRUSTED_PROXIES``); while an address is over
    ``API_AUTH_FAILURES_PER_ADDRESS`` failures in ``API_AUTH_FAILURE_WINDOW_MINUTES``, its
    failed authentications get 429 with ``Retry-After`` instead of 401 (and are not
    counted, so hammering does not prolong the wait), until it is under again.

    Only failures are refused: a request with a valid key or session from that address
    is authenticated and served as ever (its user's own throttles apply), and so is a
    request without credentials to an endpoint that needs none; neither counts. A wrong
    key is refused before any view runs (DRF authenticates first), so replacing its 401
    changes nothing but the status.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(API_PREFIX):
            return self.get_response(request)
        response = self.get_response(request)
        if response.status_code != 401:
            return response
        address = client_address(request)
        wait = auth_failure_wait(address)
        if wait is not None:
            return _too_many_failures(wait)
        count_auth_failure(address)
        return response


def _too_many_failures(wait: float) -> JsonResponse:
    response = JsonResponse(
        {
            "code": "throttled",
            "detail": _(
                "These credentials are not valid, and too many requests from your address "
                "failed to authenticate: try again later (Retry-After says when). Valid "
                "API keys and signed-in browsers from your address are still served."
            ),
        },
        status=429,
    )
    response["Retry-After"] = str(math.ceil(wait))
    return response
