"""The Redis broker: kombu's ``redis://`` transport, whose channels fail as disconnected once
their connection has been let go of, instead of with ``AttributeError`` (decision 0010).

When a worker loses the broker, Celery 5.7.0 collects the connection, which lets the
transport forget its client (the broker's address), and then closes it. A channel that
holds an unacknowledged message then needs Redis once more:
- the close gives such messages back;
- the task that the message started acknowledges it when it ends.

We run with ``acks_late``, so a task in progress is such a message. Each time, kombu's
channel builds a new connection pool from the forgotten address and raises
``AttributeError``. The worker takes that for an unrecoverable error and exits, so any Redis
restart or dropped connection during a task stopped every worker.

Here the channel raises redis's ``ConnectionError`` instead, which is what such a channel
is: disconnected. The close and the acknowledgement already expect and log that error, and
the worker reconnects as for any lost connection. Nothing is lost:
- the message stays in Redis's set of unacknowledged messages, and kombu's workers put it
  back on its queue after the visibility timeout;
- a Redis that restarted empty lost it anyway, and the sweeps redo what such a task did;
- every task here acts once even if it runs twice.

Everything else is kombu's. ``piratz_site.celery`` makes ``redis://`` and ``rediss://``
URLs mean this transport.
"""

from kombu.transport import TRANSPORT_ALIASES
from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError


def _require_client(channel: kombu_redis.Channel) -> None:
    """``ConnectionError`` if the channel's transport is gone or has let go of its client."""
    if channel.connection is None or channel.connection.client is None:
        raise RedisConnectionError("the broker connection was lost and let go of")


class Channel(kombu_redis.Channel):
    @property
    def pool(self):
        """kombu's connection pool; ``ConnectionError`` once the connection was let go of."""
        _require_client(self)
        return super().pool

    @property
    def async_pool(self):
        """kombu's pool for consuming; ``ConnectionError`` once the connection was let go of."""
        _require_client(self)
        return super().async_pool


class Transport(kombu_redis.Transport):
    Channel = Channel


def serve_redis_urls() -> None:
    """Make ``redis://`` and ``rediss://`` (TLS) broker URLs use this transport in this
    process (kombu finds a URL's transport by its scheme in ``TRANSPORT_ALIASES``, as
    ``core.file_broker`` does)."""
    for scheme in ("redis", "rediss"):
        TRANSPORT_ALIASES[scheme] = f"{__name__}:Transport"
