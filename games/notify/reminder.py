"""The reminder before a turn's deadline; a reply to it plays as a reply to the turn email."""

from django.utils import timezone, translation

from accounts.schedule import EmailKind
from games.describe import format_moment
from games.models import Game
from games.notify import common
from games.notify.recipient import recipient_for
from games.notify.turn import reply_to_for
from notifications.models import OutboundEmail


def queue_reminder(game: Game, seat: int, deadline) -> OutboundEmail | None:
    """Remind the player at ``seat`` that their turn ends at ``deadline``.

    Waits for the end of the player's quiet hours (the deadline never falls inside them).
    Like the turn email, it has a Reply-To for the game's current version (mailin) and
    says how to reply with a move: a reply to it plays as a reply to the turn email does,
    and is refused as stale once the game has moved on.
    """
    seat_row = common.seat_of(game, seat)
    if seat_row.bot:
        return None
    assert seat_row.user is not None  # a seat without a bot has its player
    recipient = recipient_for(seat_row.user, EmailKind.REMINDER)
    if not recipient.wants:
        return None
    # A late player answers the newest email they have: this one. The reminder sweep
    # queues it in the transaction that claimed the game at this very version.
    reply_to = reply_to_for(game, seat, seat_row)
    with translation.override(recipient.language):
        context = common.game_email_context(game, seat_row, recipient.zone)
        context["deadline"] = format_moment(deadline, recipient.zone)
        context["hours_left"] = max(0, round((deadline - timezone.now()).total_seconds() / 3600))
        context["reply_by_email"] = reply_to is not None
        return common.queue_game_email(game, recipient, context, reply_to=reply_to)
