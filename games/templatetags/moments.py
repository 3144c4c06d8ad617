"""``{{ moment|moment_for:user }}``: a moment as the reader says it, in their zone, the way
the table and the emails say deadlines ("Thursday 26 November, 11:01 UTC")."""

from datetime import datetime
from zoneinfo import ZoneInfo

from django import template

from accounts.preferences import settings_for
from games.describe import format_moment

register = template.Library()

UTC = ZoneInfo("UTC")


@register.filter
def moment_for(moment: datetime | None, user) -> str:
    """``moment`` in ``user``'s saved zone (UTC for a visitor not signed in);
    "" for no moment. One helper for every page, so no page shows a zoneless date."""
    if moment is None:
        return ""
    zone = settings_for(user).zone if user.is_authenticated else UTC
    return format_moment(moment, zone)
