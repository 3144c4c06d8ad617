"""The anti-spam limits on invitations, whichever door emails them: a game's, a league's.

Every invitation is an email to an address a person typed, so all of them count against
the same two limits (docs/configuration.md, docs/leagues.md): ``INVITATIONS_PER_USER_PER_DAY``
per inviter in 24 hours and ``PENDING_INVITATIONS_PER_ADDRESS`` unanswered ones per
address. Games count their own seats; an app above games that sends invitations of its
own (leagues) connects to ``invitations_sent`` and ``invitations_unanswered`` in its
``ready()``, so that a game's invitations count a league's and the reverse without games
importing it (docs/decisions/0006-signals-between-apps.md).
"""

from collections import Counter
from datetime import datetime, timedelta
from typing import cast

from django.conf import settings
from django.db import transaction
from django.dispatch import Signal
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import ServiceError
from games.models import GameStatus, Seat

# Sent with ``inviter`` and ``since``: each receiver (another door) answers how many
# invitations ``inviter`` emailed to others through it since ``since``.
invitations_sent = Signal()
# Sent with ``emails``: each receiver answers a ``Counter`` of how many of its invitations
# each address holds unanswered (addresses it has none for may be left out).
invitations_unanswered = Signal()
# Sent with ``inviter`` and ``emails`` (the invitees' canonical addresses): each receiver
# answers True when they may not be invited by ``inviter`` at all (people: a block between
# two of the people the invitation would seat together). Refused as a busy or suspended
# invitee is, in the same words, so nobody learns of a block.
invitation_refused = Signal()


def lock_inviter(inviter: User) -> None:
    """Lock ``inviter``'s row for the caller's transaction: their invitations are then
    counted and written one request after the other, so two requests at once cannot both
    slip under the daily limits. Before ``check_invitation_limits`` and any daily count."""
    User.objects.select_for_update().filter(pk=inviter.pk).first()


def check_invitation_limits(inviter: User, invitees: list[str], now: datetime) -> None:
    """Refuse (``ServiceError("throttled")``) inviting ``invitees`` (canonical addresses,
    the inviter's own left out) when it would take ``inviter`` past
    ``INVITATIONS_PER_USER_PER_DAY`` invitations in 24 hours, or when one of them holds
    ``PENDING_INVITATIONS_PER_ADDRESS`` unanswered invitations already, is suspended or
    may not be invited by ``inviter`` (``invitation_refused``: a block); every registered
    door's invitations count with the games'.

    Must run in the transaction that writes the invitations, after ``lock_inviter``
    (``RuntimeError`` outside one): a refusal there rolls back whatever the caller wrote.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("check_invitation_limits() must run in the inviting transaction")
    day_ago = now - timedelta(days=1)
    doors = invitations_sent.send(User, inviter=inviter, since=day_ago)
    sent = Seat.objects.filter(game__host=inviter, game__created_at__gte=day_ago).exclude(
        user=inviter
    ).count() + sum(cast(int, n) for _door, n in doors)
    if sent + len(invitees) > settings.INVITATIONS_PER_USER_PER_DAY:
        raise ServiceError(
            "throttled",
            _("You can invite at most %(count)d players a day.")
            % {"count": settings.INVITATIONS_PER_USER_PER_DAY},
        )
    unanswered = Counter(
        Seat.objects.filter(
            user__email__in=invitees, game__status=GameStatus.INVITED, accepted_at=None
        ).values_list("user__email", flat=True)
    )
    for _door, theirs in invitations_unanswered.send(User, emails=invitees):
        unanswered.update(cast(Counter[str], theirs))
    busy = any(unanswered[email] >= settings.PENDING_INVITATIONS_PER_ADDRESS for email in invitees)
    suspended = User.objects.filter(User.suspended_q(now), email__in=invitees).exists()
    answers = invitation_refused.send(User, inviter=inviter, emails=invitees)
    refused = any(no for _app, no in answers)
    if busy or suspended or refused:
        # Neither which address nor why (its pending count, a suspension, a block): that
        # is the person's business, not the inviter's; the refusals read the same.
        raise ServiceError(
            "throttled",
            _("One of these addresses cannot be invited right now; try again later."),
        )
