"""Who a game email goes to: one value per seat and message, read from ``accounts`` once.

Every builder of a game email used to ask ``accounts`` apart for the person's language,
settings, zone, quiet hours, channel and unsubscribe link; ``recipient_for`` reads them
together and the builders get the value passed down.
"""

from dataclasses import dataclass
from datetime import datetime, time
from functools import cached_property
from zoneinfo import ZoneInfo

from accounts.languages import language_of
from accounts.models import User
from accounts.preferences import settings_for
from accounts.schedule import Channel, quiet_until
from accounts.unsubscribe import settings_url, unsubscribe_url

# Sent whatever the person's settings say: news of their own seat and table.
ALWAYS_SENT = frozenset({"stand_in", "resigned", "clock_changed"})


@dataclass(frozen=True)
class Recipient:
    """The person at a seat as one email of ``kind`` needs them: the ``address``, the
    ``language`` and time ``zone``, whether they ``wants`` it at all, the ``channel`` it
    goes by (email, push or both) and their quiet hours; the links of the footer are
    signed when first asked for (``unsubscribe_link`` only for an email that goes)."""

    user: User
    kind: str
    address: str
    language: str
    zone: ZoneInfo
    wants: bool
    channel: Channel
    quiet_start: time | None
    quiet_end: time | None

    def quiet_until(self, moment: datetime) -> datetime:
        """``moment`` outside the quiet hours, else their end (``accounts.schedule``)."""
        return quiet_until(self.zone, self.quiet_start, self.quiet_end, moment)

    @cached_property
    def unsubscribe_link(self) -> str:
        """The one-click link (``List-Unsubscribe``) that switches ``kind`` off."""
        return unsubscribe_url(self.user, self.kind)

    @cached_property
    def settings_link(self) -> str:
        """The settings page, which every game email's footer links to."""
        return settings_url()


def recipient_for(user: User, kind: str) -> Recipient:
    """``user`` as an email of ``kind`` needs them: their settings read once (a saved row
    or the defaults) and their language (``language_of``)."""
    prefs = settings_for(user)
    return Recipient(
        user=user,
        kind=kind,
        address=user.email,
        language=language_of(user),
        zone=prefs.zone,
        wants=kind in ALWAYS_SENT or prefs.wants(kind),
        channel=prefs.channel(kind),
        quiet_start=prefs.quiet_start,
        quiet_end=prefs.quiet_end,
    )
