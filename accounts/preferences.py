"""A person's email preferences and absences: the kinds of email, quiet hours, vacations.

The time logic here is pure (no database, no clock): callers pass ``now``.
``settings_for`` and ``vacations_between`` read the database; the ``do_*`` functions
at the end are the only writers of settings and vacations.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.conf import settings as django_settings
from django.db import transaction
from django.utils.translation import gettext

from core.errors import ServiceError

if TYPE_CHECKING:
    from accounts.models import NotificationSettings, User

Interval = tuple[datetime, datetime]

YEAR = timedelta(days=365)
MAX_REMINDER_LEADS = 3
MAX_REMINDER_LEAD_HOURS = 720  # 30 days: longer than any turn a game may be given
# How far in the past a vacation's start may be and still be read as "now".
START_SLACK = timedelta(minutes=5)


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


def busiest_year(intervals: Iterable[Interval], touching: Interval | None = None) -> timedelta:
    """The most vacation time that any rolling 365-day window contains.

    The time a window [t, t+365d) holds changes linearly in t between the moments
    where an edge of the window meets an edge of a vacation, so the maximum is found
    by trying only windows that start or end on a vacation's start or end. With
    ``touching``, only windows overlapping that interval count (a new vacation is
    judged by the years it is part of, not by older ones; closed, so the limits count).
    """
    merged = merge_intervals(intervals)
    edges = [edge for interval in merged for edge in interval]
    best = timedelta(0)
    for window_start in [*edges, *(edge - YEAR for edge in edges)]:
        window_end = window_start + YEAR
        if touching is not None and not (touching[0] <= window_end and window_start <= touching[1]):
            continue
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

    The rules: it must not be over already, must end after it starts, must start
    within a year from ``now``, must not overlap the person's other vacations, and
    no rolling 365-day window may then hold more than ``days_per_year`` days of
    vacation in total (counting the time of every vacation, past, running or
    planned, that falls inside that window).
    """
    start, end = new
    if end <= now:
        return gettext("This vacation would be over already; it must end in the future.")
    if end <= start:
        return gettext("A vacation must end after it starts.")
    if start > now + YEAR:
        return gettext("A vacation can be planned at most a year ahead.")
    existing = list(existing)
    for other_start, other_end in existing:
        if other_start < end and start < other_end:
            return gettext(
                "This vacation overlaps another of yours (%(start)s to %(end)s UTC)."
            ) % {"start": f"{other_start:%Y-%m-%d %H:%M}", "end": f"{other_end:%Y-%m-%d %H:%M}"}
    allowance = timedelta(days=days_per_year)
    if busiest_year([*existing, new], touching=new) > allowance:
        return gettext(
            "This vacation goes beyond the allowance of %(days)d days in any 365 days."
        ) % {"days": days_per_year}
    return None


def reminder_leads_problem(leads) -> str | None:
    """Why ``leads`` are not acceptable reminder lead times, as a sentence; None if they are."""
    if not isinstance(leads, list) or len(leads) > MAX_REMINDER_LEADS:
        return gettext("Give at most %(count)d reminder lead times, as a list of hours.") % {
            "count": MAX_REMINDER_LEADS
        }
    for lead in leads:
        if isinstance(lead, bool) or not isinstance(lead, int):
            return gettext("Reminder lead times are whole numbers of hours.")
        if not 1 <= lead <= MAX_REMINDER_LEAD_HOURS:
            return gettext("Reminder lead times are between 1 and %(max)d hours.") % {
                "max": MAX_REMINDER_LEAD_HOURS
            }
    if len(set(leads)) != len(leads):
        return gettext("Each reminder lead time may be given only once.")
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

    overlapping = Vacation.objects.filter(user_id=user_id, starts_at__lt=end, ends_at__gt=start)
    return merge_intervals(overlapping.values_list("starts_at", "ends_at"))


# --- Changes: each one transaction, serialised per person ---------------------------------

SETTINGS_FIELDS = ("mode", "digest_hour", "reminder_leads", "time_zone", "unsubscribed")
# The fields that decide when the next digest is due.
_DIGEST_FIELDS = ("mode", "digest_hour", "time_zone")
# The fields that decide a running turn's deadline or reminders (games.deadlines).
_TURN_CLOCK_FIELDS = {"mode", "reminder_leads", "time_zone", "quiet_hours", "unsubscribed"}


def _lock_person(user: User) -> None:
    """Lock the person's row: their settings and vacation changes then run one at a time.

    Without it two requests could each check the vacation allowance (or create the
    settings row) before the other commits, and both be accepted.
    """
    from accounts.models import User

    User.objects.select_for_update().only("id").get(pk=user.pk)


def do_update_settings(user: User, changes: dict, *, now: datetime) -> NotificationSettings:
    """Apply validated ``changes`` to the person's settings and save them.

    ``changes`` holds any of ``SETTINGS_FIELDS`` and ``quiet_hours`` (a ``(start, end)``
    pair of local times, or None for none) and ``language`` (a code of ``LANGUAGES``, or ""
    to follow the browser; stored on the User); the API has validated each value, this
    re-checks what a bad caller could break (a zone, equal quiet hours, lead times) and
    raises ``ServiceError("invalid", ...)`` changing nothing. ``next_digest_at`` is
    recomputed when the mode, digest hour or time zone changed.
    """
    from accounts.models import NotificationSettings

    if "time_zone" in changes and not is_time_zone(changes["time_zone"]):
        raise ServiceError(
            "invalid",
            gettext("%(zone)r is not a known time zone.") % {"zone": changes["time_zone"]},
        )
    if "reminder_leads" in changes and (
        problem := reminder_leads_problem(changes["reminder_leads"])
    ):
        raise ServiceError("invalid", problem)
    if changes.get("quiet_hours") is not None:
        start, end = changes["quiet_hours"]
        if start == end:
            raise ServiceError(
                "invalid", gettext("Quiet hours must start and end at different times.")
            )
    if "unsubscribed" in changes:
        unknown = set(changes["unsubscribed"]) - set(UNSUBSCRIBABLE_KINDS)
        if unknown:
            raise ServiceError(
                "invalid",
                gettext("These emails cannot be switched off: %(kinds)s.")
                % {"kinds": ", ".join(sorted(unknown))},
            )
    if changes.get("language") and changes["language"] not in dict(django_settings.LANGUAGES):
        raise ServiceError(
            "invalid",
            gettext("%(code)r is not a language of this site.") % {"code": changes["language"]},
        )
    with transaction.atomic():
        _lock_person(user)
        if "language" in changes:
            # Lives on the User (pages read it on every request); "" follows the browser.
            type(user).objects.filter(pk=user.pk).update(language=changes["language"] or "")
            user.language = changes["language"] or ""
        settings, _ = NotificationSettings.objects.get_or_create(user=user)
        digest_before = tuple(getattr(settings, name) for name in _DIGEST_FIELDS)
        for name in SETTINGS_FIELDS:
            if name in changes:
                setattr(settings, name, changes[name])
        if "unsubscribed" in changes:
            settings.unsubscribed = sorted(set(changes["unsubscribed"]))
        if "quiet_hours" in changes:
            settings.quiet_start, settings.quiet_end = changes["quiet_hours"] or (None, None)
        digest_after = tuple(getattr(settings, name) for name in _DIGEST_FIELDS)
        if digest_after != digest_before or (
            settings.mode == "digest" and not settings.next_digest_at
        ):
            settings.next_digest_at = settings.next_digest_after(now)
        settings.save()
        if _TURN_CLOCK_FIELDS & set(changes):
            # The deadline (quiet hours, zone) and the reminders (leads, mode) of the games
            # waiting on this person follow the new settings.
            _refresh_deadlines(user)
    user.notification_settings = settings
    return settings


def do_unsubscribe(user: User, kind: str) -> None:
    """Switch emails of ``kind`` off for the person (idempotent).

    Raises ``ServiceError("invalid", ...)`` for a kind that cannot be switched off.
    """
    if kind not in UNSUBSCRIBABLE_KINDS:
        raise ServiceError(
            "invalid", gettext("%(kind)r emails cannot be switched off.") % {"kind": kind}
        )
    from accounts.models import NotificationSettings

    with transaction.atomic():
        _lock_person(user)
        settings, _ = NotificationSettings.objects.get_or_create(user=user)
        if kind not in settings.unsubscribed:
            settings.unsubscribed = sorted({*settings.unsubscribed, kind})
            settings.save(update_fields=["unsubscribed", "updated_at"])


def _refresh_deadlines(user: User) -> None:
    # Games waiting on this person get their deadline paused or resumed (games.deadlines
    # belongs to the games app, which imports accounts: imported here, not at the top).
    from games.deadlines import refresh_deadlines_for

    refresh_deadlines_for(user)


def do_add_vacation(user: User, starts_at: datetime | None, ends_at: datetime, *, now: datetime):
    """Declare an absence from ``starts_at`` (None: now) to ``ends_at`` and return it.

    A start up to ``START_SLACK`` in the past is read as now (the client's clock may
    lag); further back is refused, as is anything ``vacation_problem`` refuses, with
    ``ServiceError("invalid", ...)``, changing nothing. In the same transaction the
    deadlines of games waiting on this person are recomputed.
    """
    from accounts.models import Vacation

    if starts_at is None or now - START_SLACK <= starts_at < now:
        starts_at = now
    elif starts_at < now:
        raise ServiceError("invalid", gettext("A vacation cannot start in the past."))
    with transaction.atomic():
        _lock_person(user)
        existing = list(
            Vacation.objects.filter(
                user=user, ends_at__gt=starts_at - YEAR, starts_at__lt=ends_at + YEAR
            ).values_list("starts_at", "ends_at")
        )
        problem = vacation_problem(
            (starts_at, ends_at), existing, now, django_settings.VACATION_DAYS_PER_YEAR
        )
        if problem:
            raise ServiceError("invalid", problem)
        vacation = Vacation.objects.create(
            user=user, starts_at=starts_at, ends_at=ends_at, created_at=now
        )
        _refresh_deadlines(user)
    return vacation


def do_end_vacation(user: User, vacation_id: int, *, now: datetime) -> None:
    """End the person's running vacation now, or cancel a planned one.

    ``ServiceError("not_found")`` if it is not one of theirs, ``ServiceError("invalid")`` if
    it is over already. Deadlines are recomputed in the same transaction.
    """
    from accounts.models import Vacation

    with transaction.atomic():
        _lock_person(user)
        vacation = Vacation.objects.filter(user=user, id=vacation_id).first()
        if vacation is None:
            raise ServiceError("not_found", gettext("You have no vacation with this id."))
        if vacation.ends_at <= now:
            raise ServiceError("invalid", gettext("This vacation is over already."))
        if vacation.starts_at >= now:
            vacation.delete()  # never started: it takes nothing from the allowance
        else:
            vacation.ends_at = now
            vacation.save(update_fields=["ends_at"])
        _refresh_deadlines(user)
