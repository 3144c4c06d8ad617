"""The table streams' fan-out (games.live.Fanout) on the news bus (games.news_bus, Redis
publish/subscribe): a process's streams share one subscriber and one receive loop; each
message reaches the streams of its own game only; a lost connection ends every stream
(their browsers reconnect and catch up) and the next stream starts afresh; one timer tells
every stream when a keepalive is due; the last stream to leave stops the receive loop and
the timer and closes the connection."""

import asyncio
import os
import subprocess
import sys
import uuid
from pathlib import Path
from unittest import mock

import pytest
import redis
from asgiref.sync import async_to_sync

from games import live
from games.news_bus import NewsBus

WAIT_SECONDS = 3


def news(group: str, version: int) -> dict:
    return {"type": live.TABLE_NEWS, "group": group, "version": version}


async def get(queue: asyncio.Queue) -> dict:
    return await asyncio.wait_for(queue.get(), WAIT_SECONDS)


def test_a_message_reaches_every_stream_of_its_game_and_no_other(redis_url):
    bus = NewsBus(redis_url)
    mine, other = live.group_name(uuid.uuid4()), live.group_name(uuid.uuid4())

    async def scenario():
        fanout = live.Fanout(bus)
        first, second = await fanout.listen(mine), await fanout.listen(mine)
        elsewhere = await fanout.listen(other)
        channel = fanout.channel
        bus.publish(mine, news(mine, 1))
        assert await get(first) == news(mine, 1) and await get(second) == news(mine, 1)
        bus.publish(other, news(other, 7))
        assert await get(elsewhere) == news(other, 7)
        # The other game's news never reached this game's streams (nor the reverse).
        assert first.empty() and second.empty() and elsewhere.empty()
        assert fanout.channel == channel  # one channel for the process's streams
        receiving = fanout.receiving
        assert receiving is not None
        for group, queue in ((mine, first), (mine, second), (other, elsewhere)):
            await fanout.unlisten(group, queue)
        # The last stream gone, nothing receives (no wake-ups for an idle process).
        await asyncio.sleep(0.01)
        assert receiving.done() and fanout.receiving is None and fanout.channel is None
        assert channel not in bus._subscriptions  # its connection closed with the last
        bus.publish(mine, news(mine, 2))  # published to nobody: no error, nothing queued
        assert first.empty()

    async_to_sync(scenario)()


def test_a_lost_redis_connection_ends_the_streams_instead_of_reconnecting_silently(redis_url):
    """Publish/subscribe keeps nothing: news sent while a subscriber reconnected would be
    lost without a word. So the bus does not reconnect: the receive fails, the streams end
    and their pages catch up from the version (docs/decisions/0007)."""
    bus = NewsBus(redis_url, name=f"test-{uuid.uuid4().hex[:12]}")
    group = live.group_name(uuid.uuid4())

    async def scenario():
        fanout = live.Fanout(bus)
        inbox = await fanout.listen(group)
        bus.publish(group, news(group, 1))
        assert await get(inbox) == news(group, 1)
        # Redis drops the subscriber's connection (as a restart does).
        admin = redis.Redis.from_url(redis_url)
        ours = [c["id"] for c in admin.client_list(_type="pubsub") if c["name"] == bus.name]
        assert len(ours) == 1
        admin.client_kill_filter(_id=ours[0])
        assert await get(inbox) == live.LAYER_LOST
        assert fanout.receiving is None and fanout.channel is None
        again = await fanout.listen(group)  # a reconnecting page: a new subscriber
        bus.publish(group, news(group, 2))
        assert await get(again) == news(group, 2)
        await fanout.unlisten(group, again)

    async_to_sync(scenario)()


class LosingLayer:
    """A layer whose Redis goes away when told: ``receive`` then raises."""

    def __init__(self):
        self.channels = 0
        self.lost = asyncio.Event()

    async def new_channel(self) -> str:
        self.channels += 1
        return f"specific.test!{self.channels}"

    async def group_add(self, group, channel):
        pass

    async def group_discard(self, group, channel):
        pass

    async def receive(self, channel):
        await self.lost.wait()
        raise ConnectionError("Redis went away")

    async def discard_channel(self, channel):
        pass


def test_a_lost_layer_ends_every_stream_and_the_next_one_starts_afresh():
    async def scenario():
        layer = LosingLayer()
        fanout = live.Fanout(layer)
        queues = [await fanout.listen("table.a"), await fanout.listen("table.b")]
        receiving = fanout.receiving
        layer.lost.set()
        assert [await get(queue) for queue in queues] == [live.LAYER_LOST] * 2
        assert fanout.receiving is None and fanout.channel is None
        layer.lost.clear()
        again = await fanout.listen("table.a")
        assert fanout.channel == "specific.test!2" and fanout.receiving is not receiving
        await fanout.unlisten("table.a", again)
        # A stream that ended with the lost layer leaves without touching the new state.
        await fanout.unlisten("table.b", queues[1])
        assert fanout.receiving is None

    async_to_sync(scenario)()


def test_one_timer_tells_every_stream_when_its_keepalive_is_due(settings):
    settings.TABLE_STREAM_KEEPALIVE_SECONDS = 0.05

    async def scenario():
        fanout = live.Fanout(LosingLayer())
        queues = [await fanout.listen("table.a"), await fanout.listen("table.b")]
        ticking = fanout.ticking
        assert ticking is not None
        due = {"type": live.KEEPALIVE_DUE, "marked": None}  # no reader: nobody to mark
        assert [await get(queue) for queue in queues] == [due] * 2
        assert [await get(queue) for queue in queues] == [due] * 2
        await fanout.unlisten("table.a", queues[0])
        await fanout.unlisten("table.b", queues[1])
        await asyncio.sleep(0.01)
        assert ticking.done() and fanout.ticking is None

    async_to_sync(scenario)()


def test_the_timer_marks_every_listening_reader_at_the_table_in_one_write(settings):
    """Each keepalive renews the presence of the streams' readers (games.presence) in one
    cache write for all of the process's streams, and gives each stream the mark (which
    its leaving compares); a stream that left is no longer marked."""
    from django.core.cache import cache

    from games import presence

    settings.TABLE_STREAM_KEEPALIVE_SECONDS = 0.05
    game = uuid.uuid4()
    writes = []

    async def scenario():
        fanout = live.Fanout(LosingLayer())
        anna = await fanout.listen("table.a", (game, 0))
        bert = await fanout.listen("table.a", (game, 1))
        watcher = await fanout.listen("table.a")
        due = await get(anna)
        assert due["type"] == live.KEEPALIVE_DUE and due["marked"] is not None
        assert await get(bert) == due and await get(watcher) == due
        assert await asyncio.to_thread(presence.live_seats, game, [0, 1, 2]) == [0, 1]
        await fanout.unlisten("table.a", bert)
        await asyncio.to_thread(cache.clear)
        while (await get(anna))["marked"] == due["marked"]:
            pass  # a tick that was under way as bert left
        assert await asyncio.to_thread(presence.live_seats, game, [0, 1, 2]) == [0]
        await fanout.unlisten("table.a", anna)
        await fanout.unlisten("table.a", watcher)

    set_many = cache.set_many

    def counted(marks, **kwargs):
        writes.append(sorted(marks))
        return set_many(marks, **kwargs)

    with mock.patch.object(presence.cache, "set_many", counted):
        async_to_sync(scenario)()
    # One write per tick, naming every reader at once (never one per stream).
    assert writes[0] == [f"table-live:{game}:0", f"table-live:{game}:1"]
    assert writes[-1] == [f"table-live:{game}:0"]


def test_production_settings_put_the_news_bus_on_the_caches_redis_unless_told_otherwise():
    def news_url(**extra):
        code = "import piratz_site.settings as s; print(s.TABLE_NEWS_URL)"
        env = {
            "PATH": os.environ.get("PATH", ""),
            "SECRET_KEY": "a-long-random-production-key-" + "k" * 30,
            **extra,
        }
        root = Path(__file__).resolve().parents[2]
        answer = subprocess.run(
            [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True
        )
        assert answer.returncode == 0, answer.stderr
        return answer.stdout.strip()

    assert news_url(CACHE_URL="redis://127.0.0.1:6379/3") == "redis://127.0.0.1:6379/3"
    assert news_url(CACHE_URL="redis://a:6379/3", TABLE_NEWS_URL="rediss://b:6380/0") == (
        "rediss://b:6380/0"
    )
    assert news_url() == ""  # no Redis: the streams poll


def test_a_stream_that_could_not_join_leaves_no_reader_to_mark():
    """Redis away when a stream opens: the stream gets the error, and its reader is not
    marked live at later keepalives by a fan-out it never joined."""

    class Unreachable(LosingLayer):
        async def new_channel(self) -> str:
            raise ConnectionError("Redis is away")

    async def scenario():
        fanout = live.Fanout(Unreachable())
        with pytest.raises(ConnectionError):
            await fanout.listen("table.a", (uuid.uuid4(), 0))
        assert fanout.readers == {} and fanout.inboxes == {}

    async_to_sync(scenario)()
