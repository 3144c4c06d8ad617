"""The table streams' fan-out (games.live.Fanout): a process's streams share one channel on
the layer and one receive loop; each message reaches the streams of its own game only; a
lost layer ends every stream (their browsers reconnect and catch up) and the next stream
starts afresh; one timer tells every stream when a keepalive is due; the last stream to
leave stops the receive loop and the timer."""

import asyncio
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

from asgiref.sync import async_to_sync
from channels_redis.core import RedisChannelLayer

from games import live

WAIT_SECONDS = 3


def news(group: str, version: int) -> dict:
    return {"type": live.TABLE_NEWS, "group": group, "version": version}


async def get(queue: asyncio.Queue) -> dict:
    return await asyncio.wait_for(queue.get(), WAIT_SECONDS)


def test_a_message_reaches_every_stream_of_its_game_and_no_other(redis_url):
    layer = RedisChannelLayer(hosts=[redis_url], prefix=f"test-{uuid.uuid4().hex[:8]}")
    mine, other = live.group_name(uuid.uuid4()), live.group_name(uuid.uuid4())

    async def scenario():
        fanout = live.Fanout(layer)
        first, second = await fanout.listen(mine), await fanout.listen(mine)
        elsewhere = await fanout.listen(other)
        channel = fanout.channel
        await layer.group_send(mine, news(mine, 1))
        assert await get(first) == news(mine, 1) and await get(second) == news(mine, 1)
        await layer.group_send(other, news(other, 7))
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
        await layer.flush()

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
        assert [await get(queue) for queue in queues] == [live.KEEPALIVE_DUE] * 2
        assert [await get(queue) for queue in queues] == [live.KEEPALIVE_DUE] * 2
        await fanout.unlisten("table.a", queues[0])
        await fanout.unlisten("table.b", queues[1])
        await asyncio.sleep(0.01)
        assert ticking.done() and fanout.ticking is None

    async_to_sync(scenario)()


def test_the_layers_read_timeout_outlasts_its_blocking_pop():
    """redis-py's default read timeout (5 s) equals the layer's blocking pop: the pop of an
    idle process then failed as a timeout, ending the fan-out's receive loop (and every
    stream of the process) every 5 s. The production settings read with a longer one."""
    code = "import json, piratz_site.settings as s; print(json.dumps(s.CHANNEL_LAYERS))"
    env = {
        "PATH": os.environ.get("PATH", ""),
        "CACHE_URL": "redis://127.0.0.1:6379/3",
        "SECRET_KEY": "a-long-random-production-key-" + "k" * 30,
    }
    root = Path(__file__).resolve().parents[2]
    answer = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True
    )
    assert answer.returncode == 0, answer.stderr
    [host] = json.loads(answer.stdout)["default"]["CONFIG"]["hosts"]
    assert host["address"] == "redis://127.0.0.1:6379/3"
    assert host["socket_timeout"] > RedisChannelLayer.brpop_timeout
