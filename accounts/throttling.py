"""Request throttles keyed by the client address (as trusted proxies report it), and the
login-link throttle: an atomic counter shared by every process through the cache."""

import hashlib
import time

from django.core.cache import cache, caches
from django.core.cache.backends.db import DatabaseCache
from django.core.exceptions import ImproperlyConfigured
from django.db import connections, router, transaction
from django.http import HttpRequest
from rest_framework import throttling
from rest_framework.settings import api_settings

from piratz_site.proxies import client_address

SCOPE = "login_link"


class _ByClientAddress:
    """DRF reads ``X-Forwarded-For`` from anybody; we only from ``TRUSTED_PROXIES``."""

    def get_ident(self, request) -> str:
        return client_address(request)


class AnonRateThrottle(_ByClientAddress, throttling.AnonRateThrottle):
    """DRF's throttle for anonymous callers, per client address."""


class UserRateThrottle(_ByClientAddress, throttling.UserRateThrottle):
    """DRF's throttle per user (per client address for anonymous callers)."""


class LoginLinkThrottle(_ByClientAddress, throttling.SimpleRateThrottle):
    """Asking for login links: ``DEFAULT_THROTTLE_RATES["login_link"]`` per client address.

    One budget per address covers both ways of asking (API and web form), whoever is
    logged in. Unlike DRF's throttles, which read a request history, decide, then write
    it back (so simultaneous requests all pass: 12 of 10), each request here takes a
    number from an atomic counter and only the first ``num_requests`` pass. The window
    slides: the previous fixed window's count weighs in by the share of it that still
    lies within one period, so a burst at a window's end cannot be doubled at the
    start of the next. Refused requests are not counted.
    """

    scope = SCOPE

    def get_rate(self) -> str:
        # Read per request rather than at import (DRF's default), so overridden settings apply.
        try:
            return api_settings.DEFAULT_THROTTLE_RATES[self.scope]
        except KeyError:
            raise ImproperlyConfigured(
                f"No throttle rate set for the {self.scope!r} scope."
            ) from None

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def allow_request(self, request, view) -> bool:
        now = time.time()
        period = self.duration
        window, elapsed = divmod(now, period)
        key = self.get_cache_key(request, view)
        previous = cache.get(f"{key}:{int(window) - 1}", 0)
        carried = previous * (1 - elapsed / period)
        current_key = f"{key}:{int(window)}"
        # Two periods: the count is still read as the previous window's in the next one.
        taken = add_to_counter(current_key, 1, timeout=2 * period)
        if taken + carried <= self.num_requests:
            self._wait = None
            return True
        add_to_counter(current_key, -1, timeout=2 * period)
        # Until the carried share of the previous window has shrunk enough, or this
        # window ends, whichever is first.
        over = taken + carried - self.num_requests
        until_decay = over / previous * period if previous else period
        self._wait = max(1.0, min(period - elapsed, until_decay))
        return False

    def wait(self) -> float | None:
        return getattr(self, "_wait", None)


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
