"""The invitation to a game and its cancellation: sent to every invitee whatever their
settings say (transactional emails: the address and the language are all they need)."""

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.functional import Promise

from accounts.languages import language_of
from games.clocks import clock_words
from games.invitation_links import invitation_token
from games.models import Game, Seat
from games.notify import common
from notifications.outbox import queue_email


def queue_invitation(game: Game, seat: Seat) -> None:
    """Queue the invitation email for ``seat``: who invites, who plays, the link to answer."""
    path = reverse("games:invitation", args=[invitation_token(game, seat)])
    # Someone new has never chosen a language: the host's (or the one the host is using
    # right now, on the page that creates the game) is the best guess.
    host_language = language_of(game.host, fallback=translation.get_language())
    assert seat.user is not None  # invitations go to people, never to a bot's own seat
    language = language_of(seat.user, fallback=host_language)
    with translation.override(language):
        notes = common.notes(game)
        clock = clock_words(game)  # a time bank or daily deadline in words ("" per turn)
    queue_email(
        seat.user.email,
        "invitation",
        {
            "game": game.game,
            "game_name": game.rules.NAME,
            "notes": notes,
            "host": game.host.public_name,
            "players": [s.public_name for s in game.seats.all()],
            "turn_hours": game.turn_hours,
            "clock": clock,
            "blind": game.blind,
            "link": settings.SITE_URL + path,
            "expires_at": game.invitation_expires_at,
            # Public (games.fairness): the invitee's own copy of what the server committed to.
            "commitment": game.seed_commitment,
        },
        topic=f"game:{game.id}",
        language=language,
    )


def queue_cancellation(game: Game, *, reason: str | Promise, exclude_declined: bool = True) -> None:
    """Tell the players of ``game`` it was cancelled and why.

    The host gets the host's text (``for_host`` in the template context): they set the
    game up, so they are not told to ask themselves for a new invitation.
    """
    for seat in game.seats.select_related("user"):
        if seat.user is None or (exclude_declined and seat.declined_at is not None):
            continue  # a bot's seat: nobody to tell
        queue_email(
            seat.user.email,
            "game_cancelled",
            {
                "game_name": game.rules.NAME,
                "host": game.host.public_name,
                "reason": reason,
                "for_host": seat.user_id == game.host_id,
            },
            topic=f"game:{game.id}",
            language=language_of(seat.user),
        )
