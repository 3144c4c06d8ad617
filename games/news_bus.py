"""Table news between processes: Redis publish/subscribe (redis-py's public client).

A process that commits a move publishes the game's news on the game's Redis channel
(``NewsBus.publish``, from the sender thread of ``games.live``: one ``PUBLISH``). A stream
server subscribes, over one connection per process (``games.live.Fanout`` uses the
``new_channel`` / ``group_add`` / ``group_discard`` / ``receive`` / ``discard_channel``
methods below), to the channels of the games its open streams show, and Redis hands each
message to it once, whatever the number of its streams.

Publish/subscribe keeps nothing for later: news published while a process is not
subscribed never reaches it. So a stream reads its table after subscribing (a change in
between is told twice, never lost), and a lost connection is not retried behind the
streams' backs (retries off): the receive fails, every stream of the process ends, and
their pages reconnect and catch up from the game's version (docs/decisions/0007).
"""

import itertools
import json

import redis
import redis.asyncio
from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import NoBackoff
from redis.retry import Retry

# Every table channel of this service starts so; Redis's channels are server-wide, not
# per database number, so another service on the same Redis keeps to its own names.
CHANNEL_PREFIX = "piratz-live:"
# A publish, or a subscriber's connect, that Redis does not answer in this time fails.
CONNECT_SECONDS = 5


class NewsBus:
    """Redis publish/subscribe on ``url``: ``publish`` for any thread of a process, the
    subscribing side for one event loop's ``games.live.Fanout``."""

    def __init__(self, url: str, *, name: str = "piratz-table-news") -> None:
        self.url = url
        self.name = name  # the subscribers' client name in Redis's CLIENT LIST
        self._publisher: redis.Redis | None = None
        self._subscriptions: dict[str, redis.asyncio.client.PubSub] = {}
        self._numbers = itertools.count(1)

    # --- publishing (any thread; the client's pool is thread-safe and fork-aware) -------

    def publish(self, group: str, message: dict) -> None:
        """Publish ``message`` (JSON-able) to the streams of ``group``; raises what redis-py
        raises when Redis is away (the caller retries or gives up)."""
        if self._publisher is None:
            self._publisher = redis.Redis.from_url(
                self.url,
                socket_timeout=CONNECT_SECONDS,
                socket_connect_timeout=CONNECT_SECONDS,
                retry=Retry(NoBackoff(), 0),
            )
        self._publisher.publish(CHANNEL_PREFIX + group, json.dumps(message))

    # --- subscribing (one event loop) ---------------------------------------------------

    async def new_channel(self) -> str:
        """A new subscriber connection, by name (connected on its first subscription)."""
        client = redis.asyncio.Redis.from_url(
            self.url,
            socket_connect_timeout=CONNECT_SECONDS,
            socket_keepalive=True,
            retry=AsyncRetry(NoBackoff(), 0),
            client_name=self.name,
        )
        name = f"subscriber-{next(self._numbers)}"
        self._subscriptions[name] = client.pubsub(ignore_subscribe_messages=True)
        return name

    async def group_add(self, group: str, channel: str) -> None:
        """Receive ``group``'s news on ``channel`` from now on (again: no harm)."""
        await self._subscriptions[channel].subscribe(CHANNEL_PREFIX + group)

    async def group_discard(self, group: str, channel: str) -> None:
        subscription = self._subscriptions.get(channel)
        if subscription is not None:
            await subscription.unsubscribe(CHANNEL_PREFIX + group)

    async def receive(self, channel: str) -> dict:
        """The next message of any group ``channel`` subscribed to; raises when the
        connection is lost (it is not reconnected: see the module's docstring)."""
        subscription = self._subscriptions[channel]
        while True:
            message = await subscription.get_message(ignore_subscribe_messages=True, timeout=None)
            if message is not None and message["type"] == "message":
                return json.loads(message["data"])

    async def discard_channel(self, channel: str) -> None:
        """Close ``channel``'s connection (its streams are gone, or it was lost)."""
        subscription = self._subscriptions.pop(channel, None)
        if subscription is not None:
            await subscription.aclose()
