"""A person's email preferences and absences: the settings they save and their vacations.

The checks here are pure (no database, no clock): callers pass ``now``; the schedule they
build on (which emails, zones, quiet hours) is ``accounts.schedule``. ``settings_for`` and
``vacations_between`` read the database; the ``do_*`` functions at the end are the only
writers of settings and vacations, and each sends ``accounts.signals.turn_clock_changed``
when what it changed moves a player's turn deadlines.
"""

import hashlib
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings as django_settings
from django.db import IntegrityError, connection, connections, router, transaction
from django.utils.translation import gettext

from accounts import display_names
from accounts.models import NotificationSettings, User, Vacation
from accounts.schedule import PUSH_KINDS, UNSUBSCRIBABLE_KINDS, Channel, EmailKind, is_time_zone
from accounts.signals import turn_clock_changed
from core import sql
from core.errors import ServiceError

Interval = tuple[datetime, datetime]

YEAR = timedelta(days=365)
MAX_REMINDER_LEADS = 3
MAX_REMINDER_LEAD_HOURS = 720  # 30 days: longer than any turn a game may be given
# How far in the past a vacation's start may be and still be read as "now".
START_SLACK = timedelta(minutes=5)


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


def channels_problem(channels) -> str | None:
    """Why ``channels`` is not a mapping of game news kinds to channels, as a sentence;
    None if it is (``{"your_turn": "push", ...}``: kinds of ``PUSH_KINDS``, channels of
    ``Channel``)."""
    if not isinstance(channels, dict):
        return gettext("Give the channels as an object of email kinds and channels.")
    unknown = sorted(str(kind) for kind in set(channels) - set(PUSH_KINDS))
    if unknown:
        return gettext("These kinds cannot go by push: %(kinds)s.") % {"kinds": ", ".join(unknown)}
    if any(value not in set(Channel) for value in channels.values()):
        return gettext('A channel is "email", "push" or "both".')
    return None


def settings_for(user: User) -> NotificationSettings:
    """The person's saved settings, or an unsaved row of defaults (reading never writes)."""
    try:
        return user.notification_settings
    except NotificationSettings.DoesNotExist:
        return NotificationSettings(user=user)


def vacations_between(user_id: int, start: datetime, end: datetime) -> list[Interval]:
    """The user's vacations overlapping [start, end): merged, sorted (UTC, not clipped).

    One query, its SQL written out once (``raw``, which converts the times as the ORM
    does): every turn that starts reads the next player's vacations, and the ORM compiled
    this filter afresh each time, twice the Python calls of the read (decision 0009).
    """
    db = connections[router.db_for_read(Vacation)]

    def column(name: str) -> str:
        return sql.column(Vacation, name, db)

    query = (
        f"SELECT {column('id')}, {column('starts_at')}, {column('ends_at')}"
        f" FROM {sql.table(Vacation, db)}"
        f" WHERE {column('user')} = %s AND {column('starts_at')} < %s AND {column('ends_at')} > %s"
    )
    moment = Vacation._meta.get_field("starts_at")
    params = [user_id, moment.get_db_prep_value(end, db), moment.get_db_prep_value(start, db)]
    overlapping = Vacation.objects.raw(query, params, using=db.alias)
    return merge_intervals((vacation.starts_at, vacation.ends_at) for vacation in overlapping)


# --- Changes: each one transaction, serialised per person ---------------------------------

SETTINGS_FIELDS = (
    "mode",
    "digest_hour",
    "reminder_leads",
    "time_zone",
    "unsubscribed",
    "talk_emails",
    "channels",
)
# The fields that decide when the next digest is due.
_DIGEST_FIELDS = ("mode", "digest_hour", "time_zone")
# The fields that decide a running turn's deadline or reminders (games.deadlines).
_TURN_CLOCK_FIELDS = {"mode", "reminder_leads", "time_zone", "quiet_hours", "unsubscribed"}


def _lock_person(user: User) -> None:
    """Lock the person's row: their settings and vacation changes then run one at a time.

    Without it two requests could each check the vacation allowance (or create the
    settings row) before the other commits, and both be accepted.
    """
    User.objects.select_for_update().only("id").get(pk=user.pk)


def _lock_display_name(key: str) -> None:
    """On PostgreSQL, hold a transaction lock on the display name ``key``: two people
    choosing names that read alike at the same moment then take turns, and the second
    finds the first's (SQLite runs one writing transaction at a time anyway)."""
    if connection.vendor == "postgresql":
        number = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big", signed=True)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [number])


def _change_display_name(user: User, name: str | None) -> None:
    """Set the name others see (None or blank: the name derived from the address again,
    numbered if another person is shown by it meanwhile), inside the caller's transaction
    with the person locked; ``ServiceError("invalid")`` for a name of the wrong form or
    one another person is shown by, chosen or derived (``display_names``).

    The name the person has already (an operator's too, set before or despite the form
    rules) is accepted unchanged: sending back the settings one read never fails on it.
    """
    name = (name or "").strip()
    person = User.objects.get(pk=user.pk)
    if name and name != person.display_name:
        problem = display_names.form_problem(name)
        if problem is None:
            _lock_display_name(display_names.name_key(name))
            problem = display_names.taken_problem(name, user)
        if problem is not None:
            raise ServiceError("invalid", problem)
    person.display_name = name
    try:
        # A savepoint: a name taken between the check and here (by a newcomer whose
        # derived name it is) is refused below, not a broken transaction.
        with transaction.atomic():
            person.save(update_fields=["display_name"])  # derives and keys the name
    except IntegrityError:
        raise ServiceError(
            "invalid",
            gettext("The display name %(name)r is taken; choose another.") % {"name": name},
        ) from None
    user.display_name, user.derived_name = person.display_name, person.derived_name
    user.public_name_key = person.public_name_key


def do_update_settings(user: User, changes: dict, *, now: datetime) -> NotificationSettings:
    """Apply validated ``changes`` to the person's settings and save them.

    ``changes`` holds any of ``SETTINGS_FIELDS`` and ``quiet_hours`` (a ``(start, end)``
    pair of local times, or None for none), ``language`` (a code of ``LANGUAGES``, or ""
    to follow the browser; stored on the User) and ``display_name`` (the name others see,
    unique as ``display_names`` compares names; None for the address's first part; stored
    on the User); the API has validated each value, this
    re-checks what a bad caller could break (a zone, equal quiet hours, lead times) and
    raises ``ServiceError("invalid", ...)`` changing nothing. ``next_digest_at`` is
    recomputed when the mode, digest hour or time zone changed; ``talk_emails`` True takes
    ``table_talk`` off the unsubscribed kinds (the one-click link switches both off);
    ``channels`` (kind -> "email" | "push" | "both") changes only the kinds it names.
    """
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
    if "channels" in changes and (problem := channels_problem(changes["channels"])):
        raise ServiceError("invalid", problem)
    if changes.get("language") and changes["language"] not in dict(django_settings.LANGUAGES):
        raise ServiceError(
            "invalid",
            gettext("%(code)r is not a language of this site.") % {"code": changes["language"]},
        )
    with transaction.atomic():
        _lock_person(user)
        if "display_name" in changes:
            _change_display_name(user, changes["display_name"])
        if "language" in changes:
            # Lives on the User (pages read it on every request); "" follows the browser.
            type(user).objects.filter(pk=user.pk).update(language=changes["language"] or "")
            user.language = changes["language"] or ""
        settings, _ = NotificationSettings.objects.get_or_create(user=user)
        digest_before = tuple(getattr(settings, name) for name in _DIGEST_FIELDS)
        channels_before = dict(settings.channels)
        for name in SETTINGS_FIELDS:
            if name in changes:
                setattr(settings, name, changes[name])
        if "unsubscribed" in changes:
            settings.unsubscribed = sorted(set(changes["unsubscribed"]))
        if "channels" in changes:
            # Kinds not named keep their channel; email, the default, is not stored.
            merged = {**channels_before, **changes["channels"]}
            settings.channels = {k: v for k, v in sorted(merged.items()) if v != Channel.EMAIL}
        if changes.get("talk_emails"):
            # Choosing table talk emails undoes an earlier one-click unsubscribe from them.
            settings.unsubscribed = [k for k in settings.unsubscribed if k != EmailKind.TABLE_TALK]
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
            _announce_turn_clock_changed(user)
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
    with transaction.atomic():
        _lock_person(user)
        settings, _ = NotificationSettings.objects.get_or_create(user=user)
        if kind not in settings.unsubscribed:
            settings.unsubscribed = sorted({*settings.unsubscribed, kind})
            settings.save(update_fields=["unsubscribed", "updated_at"])
        if kind == EmailKind.TABLE_TALK and settings.talk_emails:
            # Table talk emails are chosen (``talk_emails``): switched off, the choice is
            # undone too, so the settings say what the person gets.
            settings.talk_emails = False
            settings.save(update_fields=["talk_emails", "updated_at"])


def _announce_turn_clock_changed(user: User) -> None:
    # Games waiting on this person pause or resume their deadline: games listens (a
    # higher floor; accounts never imports it), inside this transaction.
    turn_clock_changed.send(sender=User, user=user)


def do_add_vacation(user: User, starts_at: datetime | None, ends_at: datetime, *, now: datetime):
    """Declare an absence from ``starts_at`` (None: now) to ``ends_at`` and return it.

    A start up to ``START_SLACK`` in the past is read as now (the client's clock may
    lag); further back is refused, as is anything ``vacation_problem`` refuses of the
    vacation alone, with ``ServiceError("invalid", ...)``; what it refuses only beside the
    person's other vacations (an overlap, the allowance) with ``ServiceError("conflict",
    ...)``. Either changes nothing. In the same transaction the deadlines of games
    waiting on this person are recomputed.
    """
    if starts_at is None or now - START_SLACK <= starts_at < now:
        starts_at = now
    elif starts_at < now:
        raise ServiceError("invalid", gettext("A vacation cannot start in the past."))
    days_per_year = django_settings.VACATION_DAYS_PER_YEAR
    problem = vacation_problem((starts_at, ends_at), [], now, days_per_year)
    if problem:
        raise ServiceError("invalid", problem)
    with transaction.atomic():
        _lock_person(user)
        existing = list(
            Vacation.objects.filter(
                user=user, ends_at__gt=starts_at - YEAR, starts_at__lt=ends_at + YEAR
            ).values_list("starts_at", "ends_at")
        )
        problem = vacation_problem((starts_at, ends_at), existing, now, days_per_year)
        if problem:
            # Fine alone (checked above): it is the person's other vacations that refuse it.
            raise ServiceError("conflict", problem)
        vacation = Vacation.objects.create(
            user=user, starts_at=starts_at, ends_at=ends_at, created_at=now
        )
        _announce_turn_clock_changed(user)
    return vacation


def do_end_vacation(user: User, vacation_id: int, *, now: datetime) -> None:
    """End the person's running vacation now, or cancel a planned one.

    ``ServiceError("not_found")`` if it is not one of theirs, ``ServiceError("conflict")``
    if it is over already. Deadlines are recomputed in the same transaction.
    """
    with transaction.atomic():
        _lock_person(user)
        vacation = Vacation.objects.filter(user=user, id=vacation_id).first()
        if vacation is None:
            raise ServiceError("not_found", gettext("You have no vacation with this id."))
        if vacation.ends_at <= now:
            raise ServiceError("conflict", gettext("This vacation is over already."))
        if vacation.starts_at >= now:
            vacation.delete()  # never started: it takes nothing from the allowance
        else:
            vacation.ends_at = now
            vacation.save(update_fields=["ends_at"])
        _announce_turn_clock_changed(user)
