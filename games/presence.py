"""Who is at the table: the seats whose game page was open and live a moment ago.

The table page, its stream while it is connected (``games.views.live``: on connect and at
every keepalive, all of a process's streams in one write; it forgets the seat when it
closes), and the polling that stands in for a broken stream
(``games.views.table.game_version``), mark the reader's seat live; the page shows who is
at the table (``live_seats``); the turn email asks whether its player is live
(``games.notify.turn.queue_turn_email``) and, if so, waits for them.

Kept in the Django cache, one key per seat holding the last time (a POSIX timestamp),
expiring after ``LIVE_SECONDS``: on Redis in production, in the database's cache table
under ``make run``; nothing to migrate and nothing to clean up. Never needed to play:
while the cache's Redis does not answer, nobody counts as live and turn emails go at once.
"""

from collections.abc import Iterable
from contextlib import suppress
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from core.cache_outage import CacheUnavailable, redis_or_unavailable


def _key(game_id, seat: int) -> str:
    return f"table-live:{game_id}:{seat}"


def mark_live(game_id, seat: int, now: datetime | None = None) -> float:
    """Record that the player at ``seat`` of game ``game_id`` had its table open at
    ``now`` (default: the time now); returns the mark (for ``mark_away``). One cache
    write; nothing while Redis is down."""
    moment = (now or timezone.now()).timestamp()
    with suppress(CacheUnavailable), redis_or_unavailable():
        cache.set(_key(game_id, seat), moment, timeout=settings.LIVE_SECONDS)
    return moment


def mark_live_many(seats: Iterable[tuple], now: datetime | None = None) -> float:
    """``mark_live`` for many ``(game id, seat)`` pairs at once (a stream server's readers
    at each keepalive): one cache write for all; returns the mark they share."""
    moment = (now or timezone.now()).timestamp()
    marks = {_key(game_id, seat): moment for game_id, seat in seats}
    if marks:
        with suppress(CacheUnavailable), redis_or_unavailable():
            cache.set_many(marks, timeout=settings.LIVE_SECONDS)
    return moment


def is_live(game_id, seat: int, now: datetime | None = None) -> bool:
    """Whether the player at ``seat`` of game ``game_id`` had its table open within the
    ``LIVE_SECONDS`` before ``now`` (default: the time now). False while Redis is down."""
    moment = (now or timezone.now()).timestamp()
    seen = None
    with suppress(CacheUnavailable), redis_or_unavailable():
        seen = cache.get(_key(game_id, seat))
    # The timestamp, not only the key's expiry: a test's clock or a changed setting is
    # obeyed exactly, whatever the cache's own clock says. A mark "from the future" (the
    # web server's clock a little ahead of the worker's) is live.
    return seen is not None and moment - seen <= settings.LIVE_SECONDS


def mark_away(game_id, seat: int, mark: float) -> None:
    """Forget that the player at ``seat`` of game ``game_id`` is at the table (their
    table's stream, whose last ``mark_live`` gave ``mark``, closed), unless a page of
    theirs marked them since (the page that replaced it, another tab). Nothing while
    Redis is down."""
    with suppress(CacheUnavailable), redis_or_unavailable():
        if cache.get(_key(game_id, seat)) == mark:
            cache.delete(_key(game_id, seat))


def live_seats(game_id, seats, now: datetime | None = None) -> list[int]:
    """The seats among ``seats`` of game ``game_id`` whose player is at the table now (as
    ``is_live``), in order: one cache read for all. None live while Redis is down."""
    moment = (now or timezone.now()).timestamp()
    seen: dict = {}
    with suppress(CacheUnavailable), redis_or_unavailable():
        seen = cache.get_many([_key(game_id, seat) for seat in seats])
    return [
        seat
        for seat in sorted(seats)
        if (mark := seen.get(_key(game_id, seat))) is not None
        and moment - mark <= settings.LIVE_SECONDS
    ]
