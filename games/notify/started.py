"""The email that tells every player their game has started."""

from django.utils import translation

from accounts.schedule import EmailKind
from games.models import Game
from games.notify import common
from games.notify.recipient import recipient_for
from notifications.models import OutboundEmail


def queue_game_started(game: Game) -> list[OutboundEmail]:
    """Tell every player the game has started: who plays, in which order, who begins."""
    queued = []
    for seat_row in common.people(game):
        assert seat_row.user is not None  # people: the seats with a person
        recipient = recipient_for(seat_row.user, EmailKind.GAME_STARTED)
        if not recipient.wants:
            continue
        with translation.override(recipient.language):
            context = common.game_email_context(game, seat_row, recipient.zone)
            email = common.queue_game_email(game, recipient, context)
            if email is not None:  # None: by push alone
                queued.append(email)
    return queued
