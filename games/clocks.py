"""A game's clock: hours per turn, a time bank, or a daily deadline (``Game.clock``).

- **Hours per turn** (``per_turn``, the default): every turn gets ``turn_hours``.
- **Time bank** (``bank``, Fischer-style as Little Golem's and OGS's correspondence
  clocks): each seat starts with ``bank_hours``; a turn may last as long as the seat's
  bank, spends the clock time it used, and then gains ``increment_hours``, up to
  ``cap_hours``. A turn that runs the bank out times out (P24, R34) and leaves the
  increment alone in the bank.
- **Daily deadline** (``daily``, as diplicity): every turn ends at ``daily_hour`` o'clock
  in the host's zone (taken when the game is created), the first such moment at least
  ``DAILY_MIN_HOURS`` of clock time after the turn starts.

Here: the settings' checks (``clean_clock``), the bank's arithmetic (``bank_after_turn``),
the clock as the API shows it (``clock_json``, ``clock_request``) and the bank in words.
When deadlines fall (vacations, quiet hours, pauses) is ``games.deadlines``.
"""

from datetime import timedelta

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import ServiceError
from games.models import ClockKind, Game

# The bounds a host may choose, in hours.
MIN_BANK_HOURS, MAX_BANK_HOURS = 1, 1440  # up to 60 days
MAX_INCREMENT_HOURS = 168  # a week
MAX_CAP_HOURS = 2880  # 120 days
# What a bank without its numbers starts with: 10 days, +36 hours a turn, at most 20 days.
DEFAULT_BANK = {"bank_hours": 240, "increment_hours": 36, "cap_hours": 480}
# A daily deadline falls at least this much clock time after its turn starts, so a turn
# that begins just before the hour is not over at once: a turn lasts 12 to 36 hours.
DAILY_MIN_HOURS = 12

_BANK_FIELDS = ("bank_hours", "increment_hours", "cap_hours")
_FIELDS_OF = {
    ClockKind.PER_TURN: (),
    ClockKind.BANK: _BANK_FIELDS,
    ClockKind.DAILY: ("hour",),
}


def _whole(value, name: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise ServiceError(
            "invalid",
            _("clock %(name)s must be a whole number from %(low)d to %(high)d.")
            % {"name": name, "low": low, "high": high},
        )
    return value


def clock_from_form(data: dict) -> dict | None:
    """The clock a create form's cleaned fields ask for, as ``clean_clock`` takes it: None
    for hours per turn (``clock`` empty or ``per_turn``); a bank's numbers and a daily
    deadline's ``daily_hour`` that are left empty, or that the form has no field for, take
    the service's defaults (a daily deadline's hour is required: the service says so)."""
    kind = data.get("clock") or "per_turn"
    if kind == "bank":
        given = {name: data.get(name) for name in DEFAULT_BANK}
        return {"kind": "bank", **{k: v for k, v in given.items() if v is not None}}
    if kind == "daily":
        hour = data.get("daily_hour")
        return {"kind": "daily", **({} if hour is None else {"hour": hour})}
    return None


def clean_clock(clock) -> dict:
    """The ``Game`` fields of the clock a host asked for (None: hours per turn).

    ``clock``: ``{"kind": "per_turn"}``, ``{"kind": "bank", "bank_hours": 240,
    "increment_hours": 36, "cap_hours": 480}`` (each number optional: ``DEFAULT_BANK``)
    or ``{"kind": "daily", "hour": 20}``. Returns ``clock``, ``bank_hours``,
    ``increment_hours``, ``cap_hours`` and ``daily_hour``; the daily zone is the
    caller's (the host's). Raises ``ServiceError("invalid")`` with the reason: an unknown
    kind, a field of another kind, a number out of bounds, a cap below the bank.
    """
    fields: dict[str, str | int | None] = {
        "clock": ClockKind.PER_TURN,
        "bank_hours": None,
        "increment_hours": None,
        "cap_hours": None,
        "daily_hour": None,
    }
    if clock is None:
        return fields
    if not isinstance(clock, dict):
        raise ServiceError("invalid", _('clock must be an object with its "kind".'))
    kind = clock.get("kind")
    if kind not in ClockKind.values:
        raise ServiceError(
            "invalid",
            _('The clock\'s kind must be "per_turn", "bank" or "daily".'),
        )
    kind = ClockKind(kind)
    stray = sorted(key for key in clock if key != "kind" and key not in _FIELDS_OF[kind])
    if stray:
        raise ServiceError(
            "invalid",
            _("A clock of kind %(kind)s takes no %(fields)s.")
            % {"kind": kind.value, "fields": ", ".join(str(key) for key in stray)},
        )
    fields["clock"] = kind
    if kind == ClockKind.BANK:
        given = {**DEFAULT_BANK, **{key: clock[key] for key in _BANK_FIELDS if key in clock}}
        bank = _whole(given["bank_hours"], "bank_hours", MIN_BANK_HOURS, MAX_BANK_HOURS)
        increment = _whole(given["increment_hours"], "increment_hours", 0, MAX_INCREMENT_HOURS)
        cap = _whole(given["cap_hours"], "cap_hours", MIN_BANK_HOURS, MAX_CAP_HOURS)
        if cap < bank:
            raise ServiceError(
                "invalid",
                _("The bank's cap_hours (%(cap)d) must be at least its bank_hours (%(bank)d).")
                % {"cap": cap, "bank": bank},
            )
        fields.update(bank_hours=bank, increment_hours=increment, cap_hours=cap)
    elif kind == ClockKind.DAILY:
        if "hour" not in clock:
            raise ServiceError(
                "invalid", _("A daily clock needs its hour: a whole number from 0 to 23.")
            )
        fields["daily_hour"] = _whole(clock["hour"], "hour", 0, 23)
    return fields


def clock_json(game: Game) -> dict:
    """The clock of ``game`` as the API shows it: every key always, null where it does not
    apply (``zone``: the daily deadline's time zone)."""
    daily = game.clock == ClockKind.DAILY
    return {
        "kind": str(game.clock),
        "bank_hours": game.bank_hours,
        "increment_hours": game.increment_hours,
        "cap_hours": game.cap_hours,
        "hour": game.daily_hour if daily else None,
        "zone": (game.daily_zone or None) if daily else None,
    }


def clock_request(game: Game) -> dict:
    """The clock of ``game`` as ``clean_clock`` takes it (a rematch asks for the same)."""
    if game.clock == ClockKind.BANK:
        return {"kind": "bank", **{key: getattr(game, key) for key in _BANK_FIELDS}}
    if game.clock == ClockKind.DAILY:
        return {"kind": "daily", "hour": game.daily_hour}
    return {"kind": "per_turn"}


def bank_after_turn(left: timedelta, increment: timedelta, cap: timedelta) -> timedelta:
    """A seat's bank after its turn: what it had ``left`` when the turn ended (never less
    than nothing), plus ``increment``, at most ``cap``."""
    return min(max(left, timedelta(0)) + increment, cap)


def bank_words(seconds: int) -> str:
    """A bank as players read it, in the active language: "9 days 4 hours", "5 hours",
    "40 minutes". Counted in the turn clock's hours (``TURN_HOUR_SECONDS``), as it was set."""
    hour = settings.TURN_HOUR_SECONDS
    hours, rest = divmod(max(0, int(seconds)), hour)
    days, hours = divmod(hours, 24)
    parts = []
    if days:
        parts.append(ngettext("%(count)d day", "%(count)d days", days) % {"count": days})
    if hours:
        parts.append(ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours})
    if not parts:
        minutes = rest * 60 // hour
        parts.append(
            ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
        )
    return " ".join(parts)


def clock_words(game: Game) -> str:
    """The clock of a time bank or daily deadline game in a sentence, in the active
    language ("" for hours per turn: the pages say those as they always have)."""
    hour = settings.TURN_HOUR_SECONDS
    if game.clock == ClockKind.BANK:
        return _(
            "Time bank: %(bank)s for each player to start, %(increment)s more after each "
            "turn, at most %(cap)s."
        ) % {
            "bank": bank_words((game.bank_hours or 0) * hour),
            "increment": bank_words((game.increment_hours or 0) * hour),
            "cap": bank_words((game.cap_hours or 0) * hour),
        }
    if game.clock == ClockKind.DAILY:
        return _(
            "Every turn ends at %(hour)02d:00 (%(zone)s), at least %(min)d hours after it begins."
        ) % {"hour": game.daily_hour or 0, "zone": game.daily_zone or "UTC", "min": DAILY_MIN_HOURS}
    return ""
