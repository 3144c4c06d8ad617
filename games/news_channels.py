"""Game news by channels other than email (push messages), without games importing them.

The ``push`` app sits above ``games`` (docs/architecture.md "The floors"), so
``games.notify`` asks this registry when a person's ``NotificationSettings.channels`` sends
a kind of news elsewhere: the push app's ``AppConfig.ready`` registers its sender
(``register_sender``). Without one (push not installed) nothing goes elsewhere, and the
news goes by email whatever the channel says, so that no one misses it.
"""

from collections.abc import Callable
from datetime import datetime

from games.models import Game
from notifications.send_checks import SendCheck

# sender(game, user, kind, not_before, send_check) -> queued anything? Called inside the
# transaction of the change; it only writes rows (and schedules work on commit).
Sender = Callable[[Game, object, str, datetime | None, SendCheck | None], bool]
_senders: list[Sender] = []


def register_sender(sender: Sender) -> None:
    """Make ``sender`` the one ``queue_elsewhere`` asks (the push app's ``ready()``; again
    with the same sender changes nothing)."""
    _senders[:] = [sender]


def queue_elsewhere(
    game: Game,
    user,
    kind: str,
    *,
    not_before: datetime | None = None,
    send_check: SendCheck | None = None,
) -> bool:
    """Queue news of ``kind`` about ``game`` for ``user`` by the registered channel, due at
    ``not_before`` (None: now) and asking ``send_check`` when due, as the email would; True
    if something was queued (False: no sender, or the person has no device to send to)."""
    if not _senders:
        return False
    return _senders[0](game, user, kind, not_before, send_check)
