"""What the service tells players by email about their games, composed and queued here."""

from django.conf import settings
from django.urls import reverse

from games.models import Game, Seat
from notifications.outbox import queue_email


def queue_invitation(game: Game, seat: Seat) -> None:
    """Queue the invitation email for ``seat``: who invites, who plays, the link to answer."""
    from games.actions.invitations import invitation_token

    path = reverse("games:invitation", args=[invitation_token(game, seat)])
    queue_email(
        seat.user.email,
        "invitation",
        {
            "host": game.host.public_name,
            "players": [s.user.public_name for s in game.seats.all()],
            "turn_hours": game.turn_hours,
            "blind": game.blind,
            "link": settings.SITE_URL + path,
            "expires_at": game.invitation_expires_at,
        },
        topic=f"game:{game.id}",
    )


def queue_cancellation(game: Game, *, reason: str, exclude_declined: bool = True) -> None:
    """Tell the players of ``game`` it was cancelled and why.

    The host gets the host's text (``for_host`` in the template context): they set the
    game up, so they are not told to ask themselves for a new invitation.
    """
    for seat in game.seats.select_related("user"):
        if exclude_declined and seat.declined_at is not None:
            continue
        queue_email(
            seat.user.email,
            "game_cancelled",
            {
                "host": game.host.public_name,
                "reason": reason,
                "for_host": seat.user_id == game.host_id,
            },
            topic=f"game:{game.id}",
        )
