"""The default cache on a real Redis for one test (throttle counters, the outbox's wake-up)."""

import contextlib
import uuid

from django.core.cache import caches
from django.test import override_settings

from accounts.throttling import counter_client


@contextlib.contextmanager
def redis_cache(url: str):
    """The default cache on Redis at ``url``, under a key prefix of its own: not
    cache.clear(), which would empty the Redis db that other tests share. Its keys are
    deleted afterwards."""
    prefix = f"test-{uuid.uuid4().hex}"
    config = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": prefix,
        }
    }
    with override_settings(CACHES=config):
        try:
            yield caches["default"]
        finally:
            client = counter_client()
            if keys := list(client.scan_iter(match=f"{prefix}:*")):
                client.delete(*keys)
