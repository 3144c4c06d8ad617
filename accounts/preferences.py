"""A person's email preferences and absences: the kinds of email, quiet hours, vacations.

The time logic here is pure (no database, no clock): callers pass ``now``. Only
``settings_for`` and ``vacations_between`` read the database.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

if TYPE_CHECKING:
    from accounts.models import NotificationSettings, User

Interval = tuple[datetime, datetime]

YEAR = timedelta(days=365)
MAX_REMINDER_LEADS = 3
MAX_REMINDER_LEAD_HOURS = 720  # 30 days: longer than any turn a game may be given


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


# Answers to something the person did or must do; they can never be switched off.
TRANSACTIONAL_KINDS = frozenset(
    {EmailKind.INVITATION, EmailKind.GAME_CANCELLED, EmailKind.LOGIN_LINK}
)
# The kinds a person may switch off (by one-click unsubscribe or in the settings).
UNSUBSCRIBABLE_KINDS = tuple(kind for kind in EmailKind if kind not in TRANSACTIONAL_KINDS)
# Which notification mode lets which kinds through; the rest go in every mode.
_EACH_TURN_ONLY = frozenset({EmailKind.YOUR_TURN, EmailKind.REMINDER})
_DIGEST_ONLY = frozenset({EmailKind.DIGEST})


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


def is_time_zone(name: str) -> bool:
    """Is ``name`` an IANA time zone this system knows (e.g. ``Europe/Berlin``)?"""
    return name in available_timezones()


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


def merge_intervals(intervals: Iterable[Interval]) -> list[Interval]:
    """The union of ``intervals`` as sorted, disjoint, non-touching intervals."""
    merged: list[list[datetime]] = []
    for start, end in sorted(intervals):
        if end <= start:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(start, end) for start, end in merged]


def busiest_year(intervals: Iterable[Interval]) -> timedelta:
    """The most vacation time that any rolling 365-day window contains.

    The time a window [t, t+365d) holds changes linearly in t between the moments
    where an edge of the window meets an edge of a vacation, so the maximum is found
    by trying only windows that start or end on a vacation's start or end.
    """
    merged = merge_intervals(intervals)
    edges = [edge for interval in merged for edge in interval]
    best = timedelta(0)
    for window_start in [*edges, *(edge - YEAR for edge in edges)]:
        window_end = window_start + YEAR
        held = sum(
            (
                min(end, window_end) - max(start, window_start)
                for start, end in merged
                if start < window_end and end > window_start
            ),
            timedelta(0),
        )
        best = max(best, held)
    return best


def vacation_problem(
    new: Interval, existing: Iterable[Interval], now: datetime, days_per_year: int
) -> str | None:
    """Why the vacation ``new`` cannot be taken, as a sentence; None if it can.

    The rules: it must end after it starts, must not be over already, must start
    within a year from ``now``, must not overlap the person's other vacations, and
    no rolling 365-day window may then hold more than ``days_per_year`` days of
    vacation in total (counting the time of every vacation, past, running or
    planned, that falls inside that window).
    """
    start, end = new
    if end <= start:
        return "A vacation must end after it starts."
    if end <= now:
        return "This vacation would be over already; it must end in the future."
    if start > now + YEAR:
        return "A vacation can be planned at most a year ahead."
    existing = list(existing)
    for other_start, other_end in existing:
        if other_start < end and start < other_end:
            return (
                "This vacation overlaps another of yours "
                f"({other_start:%Y-%m-%d %H:%M} to {other_end:%Y-%m-%d %H:%M} UTC)."
            )
    allowance = timedelta(days=days_per_year)
    if busiest_year([*existing, new]) > allowance:
        return f"This vacation goes beyond the allowance of {days_per_year} days in any 365 days."
    return None


def reminder_leads_problem(leads) -> str | None:
    """Why ``leads`` are not acceptable reminder lead times, as a sentence; None if they are."""
    if not isinstance(leads, list) or len(leads) > MAX_REMINDER_LEADS:
        return f"Give at most {MAX_REMINDER_LEADS} reminder lead times, as a list of hours."
    for lead in leads:
        if isinstance(lead, bool) or not isinstance(lead, int):
            return "Reminder lead times are whole numbers of hours."
        if not 1 <= lead <= MAX_REMINDER_LEAD_HOURS:
            return f"Reminder lead times are between 1 and {MAX_REMINDER_LEAD_HOURS} hours."
    if len(set(leads)) != len(leads):
        return "Each reminder lead time may be given only once."
    return None


def settings_for(user: User) -> NotificationSettings:
    """The person's saved settings, or an unsaved row of defaults (reading never writes)."""
    from accounts.models import NotificationSettings  # models imports this module

    try:
        return user.notification_settings
    except NotificationSettings.DoesNotExist:
        return NotificationSettings(user=user)


def vacations_between(user_id: int, start: datetime, end: datetime) -> list[Interval]:
    """The user's vacations overlapping [start, end): merged, sorted (UTC, not clipped)."""
    from accounts.models import Vacation  # models imports this module

    rows = Vacation.objects.filter(user_id=user_id, starts_at__lt=end, ends_at__gt=start)
    return merge_intervals(rows.values_list("starts_at", "ends_at"))
