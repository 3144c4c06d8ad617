"""A person's email schedule, as pure functions: which emails they want, their time zone,
their quiet hours and the next digest hour.

No database, no clock: callers pass ``now``. ``accounts.models`` builds on these, and
``accounts.preferences`` (which writes the settings) validates with them.
"""

import enum
import functools
from collections.abc import Iterable
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones


class EmailKind(enum.StrEnum):
    """Every kind of email the service sends: the outbox's ``template`` and the
    unsubscribe categories."""

    YOUR_TURN = "your_turn"
    REMINDER = "reminder"
    AUTO_MOVED = "auto_moved"
    GAME_STARTED = "game_started"
    GAME_OVER = "game_over"
    GAME_ENDED = "game_ended"
    DIGEST = "digest"
    INVITATION = "invitation"
    GAME_CANCELLED = "game_cancelled"
    LOGIN_LINK = "login_link"
    # Others' table talk, at most one email per game an hour; only for those who chose it
    # (``NotificationSettings.talk_emails``).
    TABLE_TALK = "table_talk"
    # News of the games and players a person follows (``people.emails``): in every mode,
    # and off with its own switch (its one-click link, or Settings).
    FOLLOWED = "followed"


# Answers to something the person did or must do; they can never be switched off.
TRANSACTIONAL_KINDS = frozenset(
    {EmailKind.INVITATION, EmailKind.GAME_CANCELLED, EmailKind.LOGIN_LINK}
)
# The kinds a person may switch off (by one-click unsubscribe or in the settings).
UNSUBSCRIBABLE_KINDS = tuple(kind for kind in EmailKind if kind not in TRANSACTIONAL_KINDS)
# Which notification mode lets which kinds through; the rest go in every mode.
_EACH_TURN_ONLY = frozenset({EmailKind.YOUR_TURN, EmailKind.REMINDER})
_DIGEST_ONLY = frozenset({EmailKind.DIGEST})


class Channel(enum.StrEnum):
    """Where a person gets news of a kind (``NotificationSettings.channels``): by email, by
    a push message to the devices they subscribed (the ``push`` app), or both."""

    EMAIL = "email"
    PUSH = "push"
    BOTH = "both"


# The kinds that may go by push too: the game news of ``games.notify`` (each opens a game).
PUSH_KINDS = (
    EmailKind.YOUR_TURN,
    EmailKind.REMINDER,
    EmailKind.AUTO_MOVED,
    EmailKind.GAME_STARTED,
    EmailKind.GAME_OVER,
    EmailKind.GAME_ENDED,
)


def channel_for(channels: dict, kind: str) -> Channel:
    """The channel ``channels`` (kind -> channel name) gives ``kind``: email unless a push
    kind names another (an unknown stored name reads as email: nothing is lost)."""
    if kind not in PUSH_KINDS:
        return Channel.EMAIL
    try:
        return Channel(channels.get(kind, Channel.EMAIL))
    except ValueError:
        return Channel.EMAIL


def wants(mode: str, unsubscribed: Iterable[str], kind: str) -> bool:
    """May an email of ``kind`` go to a person with this ``mode`` and ``unsubscribed`` list?

    See ``NotificationSettings.wants``. Raises ``ValueError`` for an unknown kind.
    """
    kind = EmailKind(kind)
    if kind in TRANSACTIONAL_KINDS:
        return True
    if kind in set(unsubscribed):
        return False
    if kind in _EACH_TURN_ONLY:
        return mode == "each_turn"
    if kind in _DIGEST_ONLY:
        return mode == "digest"
    return True


def zone_named(name: str) -> ZoneInfo:
    """The IANA zone called ``name``; UTC for a name this system does not know.

    Names are validated when saved (``is_time_zone``); the fallback only matters if the
    system's zone database later loses one, and must not break every email to that person.
    """
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


@functools.cache
def _known_zones() -> frozenset[str]:
    # Listing them reads the zone database from disk (20-130 ms); it does not change
    # while the process runs.
    return frozenset(available_timezones())


def known_time_zones() -> list[str]:
    """Every IANA time zone name this system knows, sorted (the settings page offers them)."""
    return sorted(_known_zones())


def is_time_zone(name: str) -> bool:
    """Is ``name`` an IANA time zone this system knows (e.g. ``Europe/Berlin``)?"""
    return name in _known_zones()


def local_instant(zone: ZoneInfo, day: date, wall: time, *, after: datetime | None = None):
    """The UTC instant at which the local clock in ``zone`` first shows ``wall`` on ``day``.

    A wall time skipped by a DST jump (02:30 on a spring-forward night) is reached when
    the clock jumps past it, i.e. at the transition itself. A wall time that happens
    twice (autumn) is its first occurrence, or its second if ``after`` is given and the
    first is not later than ``after``.
    """
    first = datetime.combine(day, wall, tzinfo=zone)
    second = first.replace(fold=1)
    if first.astimezone(UTC).astimezone(zone).replace(tzinfo=None) != first.replace(tzinfo=None):
        # Skipped: fold=0 reads it with the old offset (later instant), fold=1 with the new
        # one (earlier instant); the jump lies between. Search it to the second.
        low, high = second.astimezone(UTC), first.astimezone(UTC)
        while high - low > timedelta(seconds=1):
            middle = low + (high - low) / 2
            if middle.astimezone(zone).replace(tzinfo=None) >= first.replace(tzinfo=None):
                high = middle
            else:
                low = middle
        return high.replace(microsecond=0)
    instant = first.astimezone(UTC)
    if after is not None and instant <= after:
        later = second.astimezone(UTC)
        if later > instant:  # a repeated wall time: its second occurrence
            return later
    return instant


def in_quiet_hours(start: time, end: time, wall: time) -> bool:
    """Is the local wall-clock time ``wall`` inside quiet hours [start, end)?

    ``start > end`` wraps midnight (23:00-07:00); ``start == end`` is no quiet time.
    """
    if start < end:
        return start <= wall < end
    if start > end:
        return wall >= start or wall < end
    return False


def quiet_until(zone: ZoneInfo, start: time | None, end: time | None, moment: datetime) -> datetime:
    """``moment`` if it is outside the quiet hours, else the UTC end of those quiet hours.

    Quiet hours are local wall-clock times in ``zone``: the person's clock reading
    from ``start`` up to (not including) ``end``, wrapping midnight when start > end.
    The end returned is the first instant after ``moment`` at which that clock reads
    ``end`` (see ``local_instant`` for DST gaps and repeats).
    """
    if start is None or end is None:
        return moment
    local = moment.astimezone(zone)
    wall = local.time().replace(tzinfo=None)
    if not in_quiet_hours(start, end, wall):
        return moment
    day = local.date()
    if start > end and wall >= start:
        day += timedelta(days=1)  # in the evening part: it ends tomorrow morning
    return local_instant(zone, day, end, after=moment)


def next_local_hour(zone: ZoneInfo, hour: int, moment: datetime) -> datetime:
    """The first instant after ``moment`` at which the clock in ``zone`` reaches ``hour``:00.

    At most once per local calendar day: on the autumn night that repeats the hour,
    only its first occurrence counts, so a digest cannot go out twice that day.
    """
    local = moment.astimezone(zone)
    wall = time(hour)
    candidate = local_instant(zone, local.date(), wall)
    if candidate <= moment:
        candidate = local_instant(zone, local.date() + timedelta(days=1), wall)
    return candidate
