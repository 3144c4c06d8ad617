"""``{{ moment|moment_for:user }}``: a moment as the reader says it, in their zone, the way
the table and the emails say deadlines ("Thursday 26 November, 11:01 UTC"); and
``{{ deadline|time_left }}``, the time until it as the words after "in" say it."""

from datetime import datetime
from typing import cast
from zoneinfo import ZoneInfo

from django import template
from django.utils.timesince import timeuntil
from django.utils.translation import npgettext_lazy

from accounts.preferences import settings_for
from games.describe import format_moment

register = template.Library()

UTC = ZoneInfo("UTC")

# Django's timeuntil words stand alone ("2 Tage"); after "in" German wants the dative
# plural ("in 2 Tagen", "in 1 Tag"), so these carry a context of their own.
IN_TIME_STRINGS = {
    "year": npgettext_lazy("after in", "%(num)d year", "%(num)d years", "num"),
    "month": npgettext_lazy("after in", "%(num)d month", "%(num)d months", "num"),
    "week": npgettext_lazy("after in", "%(num)d week", "%(num)d weeks", "num"),
    "day": npgettext_lazy("after in", "%(num)d day", "%(num)d days", "num"),
    "hour": npgettext_lazy("after in", "%(num)d hour", "%(num)d hours", "num"),
    "minute": npgettext_lazy("after in", "%(num)d minute", "%(num)d minutes", "num"),
}


@register.filter
def moment_for(moment: datetime | None, user) -> str:
    """``moment`` in ``user``'s saved zone (UTC for a visitor not signed in);
    "" for no moment. One helper for every page, so no page shows a zoneless date."""
    if moment is None:
        return ""
    zone = settings_for(user).zone if user.is_authenticated else UTC
    return format_moment(moment, zone)


@register.filter
def time_left(moment: datetime | None) -> str:
    """The time from now until ``moment`` in the words that follow "in" ("(in {{ left }})"):
    "2 days, 23 hours", German "2 Tagen, 23 Stunden"; "" for no moment."""
    if moment is None:
        return ""
    # Lazy strings, as Django's own TIME_STRINGS are: each is formatted in the language
    # active when the filter runs.
    return timeuntil(moment, time_strings=cast(dict[str, str], IN_TIME_STRINGS))
