"""The table's live stream: server-sent events that tell an open table page its game changed.

``GET /games/<id>/events`` (``text/event-stream``) sends, on connect and after every
change, ``event: table`` with ``id: <version>`` and ``{"version", "status", "what"}``;
``event: presence`` with ``{"seats": [...]}`` (who is at the table) on connect and when it
changes; and ``: keepalive`` every ``TABLE_STREAM_KEEPALIVE_SECONDS``. Nothing else about
the game: the page fetches itself again (static/js/table.js), so a seat sees on the
stream only what its own page shows. Reconnecting is the catch-up: every connect sends the
current version. The contract: docs/decisions/0007-live-table-stream.md.

Served two ways by the same view:
- under ASGI (production's stream server, uvicorn: docs/operating.md), an async iterator
  waiting on the news bus (``games.live``: Redis publish/subscribe), or polling the
  version when no Redis is configured;
- under WSGI (``make run``'s runserver, the tests' live server), a plain iterator polling
  the version once a second: each open stream holds one of the server's threads.
"""

import asyncio
import json
import logging
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections, connections
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_http_methods

from core.errors import ServiceError
from games import live, presence, watching
from games.models import Game, GameStatus

logger = logging.getLogger(__name__)

# How long the browser waits before reconnecting a stream that ended (ms, the "retry" field).
RECONNECT_MS = 2000


@require_http_methods(["GET"])
async def game_events(request: HttpRequest, game_id) -> HttpResponseBase:
    """The stream of game ``game_id`` for a player of it, staff, or anyone watching a public
    game (as the table page: 404 for others and missing games, 401 for anonymous visitors
    of a game that is not public: a script asks)."""
    user = await request.auser()
    try:
        stream = await sync_to_async(_stream_for)(user, game_id)
    except ServiceError:
        if not user.is_authenticated:
            return JsonResponse({"code": "not_authenticated"}, status=401)
        return JsonResponse({"code": "not_found"}, status=404)
    content = stream.events_async() if isinstance(request, ASGIRequest) else stream.events_sync()
    response = StreamingHttpResponse(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-store"
    # nginx: pass each event on at once, not when its buffer fills.
    response["X-Accel-Buffering"] = "no"
    return response


def _shared(function):
    """``function`` as a coroutine run in the shared worker threads, not the request's own
    (Django gives each ASGI request a thread of its own, whose database connection a
    stream would hold for its whole life): a few connections per process, checked before
    each use as a request's are."""

    def checked(*args, **kwargs):
        close_old_connections()
        try:
            return function(*args, **kwargs)
        finally:
            close_old_connections()  # as at a request's end: kept for CONN_MAX_AGE

    return sync_to_async(checked, thread_sensitive=False)


def _release_connections() -> None:
    """Close this thread's database connections, unless a transaction holds one (a test's)."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


def _stream_for(user, game_id) -> "TableStream":
    """The stream of the game as ``user`` may watch it, or ``ServiceError("not_found")``.

    The one access rule of the stream: who may see the table page may watch its stream
    (``games.watching.get_viewing``). A watcher of a public game is no seat: presence
    never counts them, and their stream ends once the game is private again."""
    viewing = watching.get_viewing(user, game_id)
    return TableStream(
        game_id=viewing.game.id,
        reader_seat=viewing.seat,
        seats=sorted(seat.seat for seat in viewing.game.seats.all()),
        watcher=viewing.watcher,
    )


@dataclass(frozen=True)
class Table:
    """What a stream knows of its table: the version and status, the news key of a
    polling stream (talk and clock news, ``games.live.news_key``) and the seats at it."""

    version: int
    status: str
    news: str | None = None
    seats: list[int] = field(default_factory=list)


def table_event(version: int, status: str, what: str) -> bytes:
    """One ``table`` event: the version as its id, and nothing about the game beyond it."""
    data = json.dumps({"version": version, "status": status, "what": what})
    return f"event: table\nid: {version}\ndata: {data}\n\n".encode()


def presence_event(seats: list[int]) -> bytes:
    """One ``presence`` event: the seats whose players are at the table now."""
    return f"event: presence\ndata: {json.dumps({'seats': seats})}\n\n".encode()


KEEPALIVE = b": keepalive\n\n"
HEARTBEAT = b":\n\n"
RETRY = f"retry: {RECONNECT_MS}\n\n".encode()


def changes(before: Table, after: Table) -> list[bytes]:
    """The events that tell a page at ``before`` that its table is now ``after``."""
    found = []
    if (after.version, after.status, after.news) != (before.version, before.status, before.news):
        if after.status != before.status:
            what = live.STARTED if after.status == GameStatus.ACTIVE else live.ENDED
        elif after.version != before.version:
            what = live.MOVE
        else:
            what = (after.news or live.TALK).split(":", 1)[0]
        found.append(table_event(after.version, after.status, what))
    if after.seats != before.seats:
        found.append(presence_event(after.seats))
    return found


@dataclass
class TableStream:
    """One open stream: whose it is and what it last told them."""

    game_id: uuid.UUID
    reader_seat: int | None
    seats: list[int]
    watcher: bool = False  # a spectator of a public game (games.watching)
    marked: float | None = None  # the reader's last presence mark (games.presence)

    # --- the database and the cache (sync: the async iterator calls them in a thread) ---

    def read(self, *, with_news: bool) -> Table | None:
        """The table now (None once the game is gone, or for a watcher no longer public:
        the stream ends)."""
        row = Game.objects.filter(id=self.game_id).values("version", "status", "public").first()
        if row is None or (self.watcher and not row["public"]):
            return None
        news = cache.get(live.news_key(self.game_id)) if with_news else None
        return Table(row["version"], row["status"], news, self.present())

    def present(self) -> list[int]:
        return presence.live_seats(self.game_id, self.seats)

    def arrive(self) -> None:
        """The reader sits at the table (their seat is marked live; staff are not seats)."""
        if self.reader_seat is not None:
            self.marked = presence.mark_live(self.game_id, self.reader_seat)
            live.announce_presence(self.game_id)

    def stay(self) -> None:
        if self.reader_seat is not None:
            self.marked = presence.mark_live(self.game_id, self.reader_seat)

    def leave(self) -> None:
        if self.reader_seat is not None and self.marked is not None:
            presence.mark_away(self.game_id, self.reader_seat, self.marked)
            live.announce_presence(self.game_id)

    # --- WSGI: polling in the server's thread ---------------------------------------------

    def events_sync(self) -> Iterator[bytes]:
        """The stream under WSGI: the version read every ``TABLE_STREAM_POLL_SECONDS``."""
        self.arrive()
        try:
            shown = self.read(with_news=True)
            if shown is None:
                return
            yield RETRY + table_event(shown.version, shown.status, live.CONNECT)
            yield presence_event(shown.seats)
            kept = time.monotonic()
            while True:
                time.sleep(settings.TABLE_STREAM_POLL_SECONDS)
                # A WSGI server learns that the reader left only by writing to them: an
                # empty comment each poll frees the thread of a closed tab at once.
                yield HEARTBEAT
                try:
                    now = self.read(with_news=True)
                except Exception:  # the database away: end; the browser reconnects later
                    logger.warning("table stream could not read its game", exc_info=True)
                    return
                if now is None:
                    return
                yield from changes(shown, now)
                shown = now
                if time.monotonic() - kept >= settings.TABLE_STREAM_KEEPALIVE_SECONDS:
                    # A write to a closed connection is how WSGI learns the reader left.
                    self.stay()
                    yield KEEPALIVE
                    kept = time.monotonic()
        finally:
            self.leave()

    # --- ASGI: waiting on the news bus (or polling without Redis) -------------------------

    async def events_async(self) -> AsyncIterator[bytes]:
        """The stream under ASGI (Django cancels it when the reader disconnects)."""
        bus = live.news_bus()
        # The request's own thread opened a database connection (its session, its user)
        # that it would hold as long as the stream lives: one per reader. Closed here; the
        # stream's reads run in the shared worker threads (``_shared``) instead.
        await sync_to_async(_release_connections)()
        await _shared(self.arrive)()
        try:
            if bus is None:
                async for chunk in self._polled():
                    yield chunk
            else:
                async for chunk in self._pushed(bus):
                    yield chunk
        finally:
            await _shared(self.leave)()

    async def _polled(self) -> AsyncIterator[bytes]:
        read = _shared(self.read)
        shown = await read(with_news=True)
        if shown is None:
            return
        yield RETRY + table_event(shown.version, shown.status, live.CONNECT)
        yield presence_event(shown.seats)
        kept = time.monotonic()
        while True:
            await asyncio.sleep(settings.TABLE_STREAM_POLL_SECONDS)
            try:
                now = await read(with_news=True)
            except Exception:  # the database away: end; the browser reconnects later
                logger.warning("table stream could not read its game", exc_info=True)
                return
            if now is None:
                return
            for chunk in changes(shown, now):
                yield chunk
            shown = now
            if time.monotonic() - kept >= settings.TABLE_STREAM_KEEPALIVE_SECONDS:
                await _shared(self.stay)()
                yield KEEPALIVE
                kept = time.monotonic()

    async def _pushed(self, bus) -> AsyncIterator[bytes]:
        group = live.group_name(self.game_id)
        fanout = live.fanout(bus)
        news = None
        try:
            reader = None if self.reader_seat is None else (self.game_id, self.reader_seat)
            news = await fanout.listen(group, reader)
        except Exception:  # the bus's Redis is away: tell the table as it is, then end
            logger.warning("table stream without its news bus", exc_info=True)
        try:
            # Joined first, read second: a change between the two is sent twice, never lost.
            shown = await _shared(self.read)(with_news=False)
            if shown is None:
                return
            yield RETRY + table_event(shown.version, shown.status, live.CONNECT)
            yield presence_event(shown.seats)
            if news is None:
                return  # the browser reconnects in RECONNECT_MS and catches up again
            seats = shown.seats
            while True:
                message = await news.get()
                if message is live.LAYER_LOST:
                    return  # the bus's Redis went away: the browser reconnects
                elif message.get("type") == live.TABLE_NEWS:
                    if self.watcher and not await _shared(watching.still_watchable)(self.game_id):
                        return  # the host made the game private: nothing more to watch
                    yield table_event(message["version"], message["status"], message["what"])
                elif message.get("type") == live.KEEPALIVE_DUE:
                    # The fan-out's timer (one per process) renewed this reader's presence.
                    if self.reader_seat is not None and message["marked"] is not None:
                        self.marked = message["marked"]
                    yield KEEPALIVE
                elif message.get("type") == live.PRESENCE_NEWS:
                    now = await _shared(self.present)()
                    if now != seats:
                        seats = now
                        yield presence_event(seats)
        finally:
            if news is not None:
                await fanout.unlisten(group, news)
