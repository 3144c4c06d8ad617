"""Game news by channels other than email (push messages), without games importing them.

The ``push`` app sits above ``games`` (docs/architecture.md "The floors"), so
``games.notify`` sends ``news_elsewhere`` when a person's ``NotificationSettings.channels``
sends a kind of news elsewhere: the push app's ``AppConfig.ready`` connects its sender
(docs/decisions/0006-signals-between-apps.md). Without one (push not installed) nothing
goes elsewhere, and the news goes by email whatever the channel says, so that no one
misses it.
"""

from datetime import datetime

from django.dispatch import Signal

from games.models import Game
from notifications.send_checks import SendCheck

# Sent with ``game``, ``user``, ``kind``, ``not_before`` and ``send_check`` inside the
# transaction of the change; a receiver only writes rows (and schedules work on commit)
# and answers whether it queued anything.
news_elsewhere = Signal()


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
    answers = news_elsewhere.send(
        Game, game=game, user=user, kind=kind, not_before=not_before, send_check=send_check
    )
    return any(queued for _sender, queued in answers)
