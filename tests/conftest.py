"""Fixtures shared by the whole suite; they describe people and services, not tables."""

import os
import socket
from urllib.parse import urlsplit

import pytest


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Throttles and rate limits count in the cache: each test starts from zero."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def _reachable(url: str) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname, parts.port or 6379), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture
def redis_url() -> str:
    """A real Redis for broker tests: TEST_REDIS_URL, skipped locally when unreachable.

    In CI (CI=true) an unreachable Redis is a failure, not a skip: CI must prove the
    real thing works.
    """
    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    if not _reachable(url):
        if os.environ.get("CI") == "true":
            pytest.fail(f"Redis at {url} is not reachable in CI")
        pytest.skip(f"Redis at {url} is not reachable")
    return url
