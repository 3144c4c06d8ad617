"""Substitutes' emails: the offer of a seat to an address (like an invitation, sent
whatever the settings say) and, once a substitute took a seat over, the word to the player
who lost it (always sent, like the stand-in email: it is about their own seat)."""

from django.conf import settings
from django.urls import reverse
from django.utils import translation

from accounts.languages import language_of
from accounts.models import User
from games.clocks import clock_words
from games.models import Game, Seat, SeatOffer
from games.notify import common
from notifications.models import OutboundEmail
from notifications.outbox import queue_email


def queue_seat_offer(game: Game, offer: SeatOffer, token: str) -> OutboundEmail:
    """Email ``offer``'s address the link (``token``) that takes the seat over: who offers
    it, the game, its players and clock, until when it is open. In the address's person's
    language, else the host's (as an invitation guesses)."""
    person = User.objects.filter(email=offer.email).first()
    language = language_of(person, fallback=language_of(game.host))
    seats = common.seats(game)
    with translation.override(language):
        clock = clock_words(game)
    return queue_email(
        offer.email,
        "seat_offer",
        {
            "game_name": game.rules.NAME,
            "host": game.host.public_name,
            "players": [s.public_name for s in seats],
            "seat": offer.seat + 1,
            "turn_hours": game.turn_hours,
            "clock": clock,
            "link": settings.SITE_URL + reverse("games:substitute", args=[token]),
            "expires_at": offer.expires_at,
        },
        topic=f"game:{game.id}",
        language=language,
    )


def queue_seat_lost(game: Game, row: Seat, previous: User) -> OutboundEmail | None:
    """Tell ``previous``, who played ``row``'s seat until a substitute took it over, that the
    seat is no longer theirs (nothing for an erased account: nobody is left to tell)."""
    if previous.erased_at is not None:
        return None
    language = language_of(previous)
    assert row.user is not None  # the substitute
    return queue_email(
        previous.email,
        "seat_lost",
        {
            "name": previous.public_name,
            "game_name": game.rules.NAME,
            "substitute": row.user.public_name,
            "seat": row.seat + 1,
            "others": [s.public_name for s in common.seats(game) if s.seat != row.seat],
        },
        topic=f"game:{game.id}",
        language=language,
    )
