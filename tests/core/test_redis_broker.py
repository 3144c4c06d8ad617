"""core.redis_broker: production's Redis broker fails as disconnected once let go of.

The worker that lives through a Redis restart mid-task is in
tests/faults/test_redis_down.py; this is the transport's own contract.
"""

import pytest
from kombu import Connection
from redis.exceptions import ConnectionError as RedisConnectionError

import piratz_site.celery  # noqa: F401  (maps redis:// URLs to core.redis_broker)
from core.redis_broker import Transport


def test_redis_urls_use_the_project_transport(redis_url):
    with Connection(redis_url) as connection:
        assert isinstance(connection.transport, Transport)
    # TLS too (nothing connects here: the transport is chosen by the URL's scheme).
    assert isinstance(Connection("rediss://redis.example:6380/0").transport, Transport)


def test_a_channel_of_a_collected_connection_fails_as_disconnected(redis_url):
    connection = Connection(redis_url)
    channel = connection.default_channel
    channel.client.ping()  # a live channel reaches Redis
    connection.collect()  # what Celery does with a connection it lost
    # kombu's own channel would hand out its old pool, or fail with AttributeError
    # building a new one, which stops a worker (decision 0010). The close and the
    # acknowledgement of a held message, which need a pool, take this for a lost connection.
    for pool in ("pool", "async_pool"):
        with pytest.raises(RedisConnectionError):
            getattr(channel, pool)
    assert issubclass(RedisConnectionError, Transport.connection_errors)  # what kombu expects
