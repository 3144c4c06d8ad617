"""What the table stream is told: news of a game, published after commit to its streams.

A table's stream (``games.views.live``) carries no game state: only that the table changed
(the game's version and status, and what kind of change) and which seats are at it, so a
page fetches itself again as a reload would. The news goes out one of two ways:

- With Redis (``settings.TABLE_NEWS_URL``: production's), ``announce`` hands the news to
  one sender thread of this process, which publishes it on the game's channel
  (``games.news_bus``); every stream of the game, in whichever ASGI process, receives it.
  The caller (a move's ``on_commit``) only puts it in a queue: the move path never waits
  on Redis, and a Redis outage loses news (the pages catch up from the version on
  reconnect) but never a move. A stream server's streams listen through one ``Fanout``
  per process: one subscriber connection, one receive loop and one keepalive timer for
  all of them.
- Without one (``make run``, the tests), each stream reads the game's version and status
  once every ``TABLE_STREAM_POLL_SECONDS`` itself, so a move committed by the Celery worker
  still shows; the news a version does not tell (talk, the clock) is a cache key the
  stream reads beside it. Moves then cost nothing at all here.

Docs: docs/decisions/0007-live-table-stream.md, docs/operating.md ("The table stream").
"""

import asyncio
import logging
import os
import queue
import threading
import time
import uuid
import weakref
from contextlib import suppress
from functools import partial

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from games import events, presence
from games.models import Game
from games.news_bus import NewsBus

logger = logging.getLogger(__name__)

# What a table event says changed (its ``what``): the contract of docs/decisions/0007.
MOVE, TALK, CLOCK, STARTED, ENDED = "move", "talk", "clock", "started", "ended"
# The first event of every stream: the table as it is at connect (the catch-up).
CONNECT = "connect"
# The message types (``type`` of a published message).
TABLE_NEWS = "table.news"
PRESENCE_NEWS = "table.presence"
# How many times, and how far apart, the sender tries a publish Redis refused.
SEND_ATTEMPTS = 3
SEND_RETRY_SECONDS = 1.0


def group_name(game_id) -> str:
    """The group (Redis channel, under ``news_bus.CHANNEL_PREFIX``) of one game's streams."""
    return f"table.{game_id}"


def news_key(game_id) -> str:
    """The cache key that tells polling streams of news a version does not show."""
    return f"table-news:{game_id}"


_buses_lock = threading.Lock()
_buses: dict[str, NewsBus] = {}


def news_bus() -> NewsBus | None:
    """The bus on ``settings.TABLE_NEWS_URL``, one per process; None without Redis."""
    url = settings.TABLE_NEWS_URL
    if not url:
        return None
    with _buses_lock:
        if url not in _buses:
            _buses[url] = NewsBus(url)
        return _buses[url]


def has_cross_process_layer() -> bool:
    """Whether news reaches streams through Redis (else they poll the version)."""
    return bool(settings.TABLE_NEWS_URL)


def announce(game_id, version: int, status: str, what: str) -> None:
    """Tell the streams of game ``game_id`` that its table changed: one cheap call, made
    after commit (``announce_on_commit``). Never raises and never waits on the network."""
    if has_cross_process_layer():
        group = group_name(game_id)
        _sender().put(
            (
                group,
                {
                    "type": TABLE_NEWS,
                    "group": group,
                    "version": version,
                    "status": status,
                    "what": what,
                },
            )
        )
    elif what in (TALK, CLOCK):
        # A polling stream sees moves, starts and ends in the version and status; this
        # key carries the rest. A fresh token each time: two talks in one second differ.
        cache.set(news_key(game_id), f"{what}:{uuid.uuid4().hex}", timeout=3600)


def announce_presence(game_id) -> None:
    """Tell the streams of game ``game_id`` that someone arrived or left (each re-reads
    ``games.presence``). A polling stream re-reads presence on its own: nothing to send."""
    if has_cross_process_layer():
        group = group_name(game_id)
        _sender().put((group, {"type": PRESENCE_NEWS, "group": group}))


def announce_on_commit(game: Game, what: str) -> None:
    """``announce`` the game as it is now, once the current transaction commits."""
    transaction.on_commit(partial(announce, game.id, game.version, game.status, what))


# --- receivers of games.events (connected in games.apps) ---------------------------------


def on_move_applied(sender, *, game: Game, **kwargs) -> None:
    announce_on_commit(game, MOVE)


def on_game_started(sender, *, game: Game, **kwargs) -> None:
    announce_on_commit(game, STARTED)


def on_game_ended(sender, *, game: Game, **kwargs) -> None:
    announce_on_commit(game, ENDED)


def on_clock_changed(sender, *, game: Game, **kwargs) -> None:
    announce_on_commit(game, CLOCK)


def connect_receivers() -> None:
    """Connect the stream's news to ``games.events`` (from ``GamesConfig.ready``)."""
    for signal, receiver in (
        (events.move_applied, on_move_applied),
        (events.game_started, on_game_started),
        (events.game_ended, on_game_ended),
        (events.clock_changed, on_clock_changed),
    ):
        signal.connect(receiver, dispatch_uid=f"live.{receiver.__name__}")


# --- the sender thread -------------------------------------------------------------------


class _Sender:
    """One daemon thread per process: publishes what ``put`` queues, in order, retrying a
    refused publish a few times (the move that queued it has long been answered)."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        thread = threading.Thread(target=self._run, name="table-news", daemon=True)
        thread.start()

    def put(self, item) -> None:
        self.queue.put(item)

    def _run(self) -> None:
        # A plain blocking get, not an executor's: a daemon thread waiting here never holds
        # up the process's exit (an executor's worker thread would be joined at exit).
        while True:
            group, message = self.queue.get()
            bus = news_bus()
            for attempt in range(1, SEND_ATTEMPTS + 1):
                try:
                    if bus is not None:
                        bus.publish(group, message)
                    break
                except Exception:  # Redis away: the pages catch up when their streams reconnect
                    if attempt == SEND_ATTEMPTS:
                        logger.warning("table news to %s not sent", group, exc_info=True)
                    else:
                        time.sleep(SEND_RETRY_SECONDS)


_sender_lock = threading.Lock()
_the_sender: _Sender | None = None


def _sender() -> _Sender:
    """This process's sender, started on first use (again in a forked Celery child)."""
    global _the_sender
    with _sender_lock:
        if _the_sender is None or _the_sender.pid != os.getpid():
            _the_sender = _Sender()
        return _the_sender


# --- the receiving side: one subscriber per process, fanned out to its streams ----------


# What a stream's inbox is given when the bus is lost (Redis away): the stream ends.
LAYER_LOST = {"type": "table.layer_lost"}
# The type of what every stream's inbox is given each TABLE_STREAM_KEEPALIVE_SECONDS: send
# a keepalive; its "marked" is the presence mark just renewed for the readers (or None).
KEEPALIVE_DUE = "table.keepalive_due"


class Fanout:
    """The streams of one process (one event loop) listening through one subscriber.

    ``layer`` is the process's ``games.news_bus.NewsBus`` (its ``new_channel``,
    ``group_add``, ``group_discard``, ``receive`` and ``discard_channel``). A receive per
    stream would cost every stream, for every message, a wake-up and a read of its own
    (BENCHMARKS.md "Table streams"); so a process's streams share one subscriber
    connection and one receive loop, which puts each message (its ``group`` names the
    game) into the inbox of each stream of that game only. A game's channel is subscribed
    with its first stream and left with its last. When the connection fails, every inbox
    gets ``LAYER_LOST`` and the fan-out starts afresh (a new subscriber, the groups joined
    again by the reconnecting streams); when its last stream leaves, the receive loop
    stops and the connection closes: no process wakes for an idle bus.

    The keepalives are the fan-out's too: one timer per process gives every inbox a
    ``KEEPALIVE_DUE`` message each ``TABLE_STREAM_KEEPALIVE_SECONDS``, where a timer per
    stream, re-armed after each of its events, cost every stream an event again. Before
    it, the timer renews the presence of every stream's reader (``listen``'s ``reader``)
    in one cache write, where a write per stream cost each a thread hop and a round trip.
    """

    def __init__(self, layer) -> None:
        self.layer = layer
        self.channel: str | None = None
        self.inboxes: dict[str, set[asyncio.Queue]] = {}
        # The (game id, seat) each inbox's reader sits at: marked live at every keepalive.
        self.readers: dict[asyncio.Queue, tuple] = {}
        self.receiving: asyncio.Task | None = None
        self.ticking: asyncio.Task | None = None
        # Joins and leaves in turn: a leave's group_discard must not undo a join under way.
        self.membership = asyncio.Lock()

    async def listen(self, group: str, reader: tuple | None = None) -> asyncio.Queue:
        """An inbox of ``group``'s messages sent from now on (the group joined on return);
        ``reader``, a ``(game id, seat)``, is marked live at each keepalive while the inbox
        listens (``games.presence``). Raises what the layer raises (Redis away)."""
        inbox: asyncio.Queue = asyncio.Queue()
        async with self.membership:
            if self.channel is None:
                self.channel = await self.layer.new_channel()
            channel = self.channel
            first = group not in self.inboxes
            self.inboxes.setdefault(group, set()).add(inbox)
            if reader is not None:
                self.readers[inbox] = reader
            try:
                if first:
                    await self.layer.group_add(group, channel)
                if self.channel != channel:
                    raise ConnectionError("the news bus was lost while joining")
            except BaseException:
                self._forget(group, inbox)
                raise
            if self.receiving is None:
                loop = asyncio.get_running_loop()
                self.receiving = loop.create_task(self._receive(channel))
                self.ticking = loop.create_task(self._tick())
        return inbox

    async def unlisten(self, group: str, inbox: asyncio.Queue) -> None:
        """Stop putting ``group``'s messages into ``inbox``; leave the group with its last."""
        async with self.membership:
            if inbox not in self.inboxes.get(group, ()):
                return  # the bus was lost meanwhile: nothing joined any more
            channel = self.channel
            if self._forget(group, inbox) and self.inboxes:
                with suppress(Exception):  # Redis away: the receive loop ends them all
                    await self.layer.group_discard(group, channel)
            if not self.inboxes and self.receiving is not None:
                self._stop()
                self.channel = None
                with suppress(Exception):
                    await self.layer.discard_channel(channel)

    def _forget(self, group: str, inbox: asyncio.Queue) -> bool:
        """Drop ``inbox``; whether it was the group's last."""
        self.readers.pop(inbox, None)
        queues = self.inboxes.get(group, set())
        queues.discard(inbox)
        if queues:
            return False
        self.inboxes.pop(group, None)
        return True

    def _stop(self) -> None:
        for task in (self.receiving, self.ticking):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        self.receiving = self.ticking = None

    async def _tick(self) -> None:
        renew = sync_to_async(presence.mark_live_many, thread_sensitive=False)
        while True:
            await asyncio.sleep(settings.TABLE_STREAM_KEEPALIVE_SECONDS)
            marked = None
            if self.readers:
                try:
                    marked = await renew(list(self.readers.values()))
                except Exception:  # the keepalives still go: a stream is more than presence
                    logger.warning("table streams' presence not renewed", exc_info=True)
            due = {"type": KEEPALIVE_DUE, "marked": marked}
            for queues in self.inboxes.values():
                for inbox in queues:
                    inbox.put_nowait(due)

    async def _receive(self, channel: str) -> None:
        try:
            while True:
                message = await self.layer.receive(channel)
                for inbox in self.inboxes.get(message.get("group"), ()):
                    inbox.put_nowait(message)
        except Exception:
            logger.warning("table streams lost their news bus", exc_info=True)
            if self.channel == channel:
                queues, self.inboxes = self.inboxes, {}
                self.readers.clear()
                self._stop()
                self.channel = None
                for group_inboxes in queues.values():
                    for inbox in group_inboxes:
                        inbox.put_nowait(LAYER_LOST)
            with suppress(Exception):
                await self.layer.discard_channel(channel)


# One fan-out per event loop (uvicorn runs one; tests run one per test).
_fanouts: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Fanout]" = (
    weakref.WeakKeyDictionary()
)


def fanout(layer) -> Fanout:
    """The running loop's fan-out of ``layer`` (a new one when the layer was replaced)."""
    loop = asyncio.get_running_loop()
    found = _fanouts.get(loop)
    if found is None or found.layer is not layer:
        found = _fanouts[loop] = Fanout(layer)
    return found
