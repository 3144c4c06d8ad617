"""Substitutes wanted, as the lobby lists them: the seats hosts of running games offer to
anyone (``games.models.SeatOffer`` without an address; docs/lobby.md "Substitutes wanted").

A person sees the open lobby offers of active games where nobody they may not meet
(``people.blocks``) and nobody suspended holds a seat, the seat still played by its
stand-in bot; they can take one unless they are suspended or hold a seat there already.
Taking it is ``games.actions.substitutes.do_take_seat_offer``, which asks the same
questions under the game's row lock.
"""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from accounts.models import User
from games.clocks import clock_words
from games.models import GameStatus, Seat, SeatOffer
from people.blocks import blocked_ids


def visible_offers(viewer: User, now: datetime | None = None) -> QuerySet[SeatOffer]:
    """The lobby offers ``viewer`` sees, newest first, with their games, hosts and seats."""
    now = now or timezone.now()
    seat_of = Seat.objects.filter(game=OuterRef("game"))
    suspended = Q(user__suspended_at__isnull=False) & (
        Q(user__suspended_until__isnull=True) | Q(user__suspended_until__gt=now)
    )
    # The seat offered: still a stand-in's (its player did not take it back).
    still_stand_in = seat_of.filter(seat=OuterRef("seat"), user__isnull=False).exclude(bot="")
    return (
        SeatOffer.objects.filter(
            closed=SeatOffer.Closed.OPEN,
            email="",
            expires_at__gt=now,
            game__status=GameStatus.ACTIVE,
        )
        .filter(Exists(still_stand_in))
        .exclude(Exists(seat_of.filter(user_id__in=blocked_ids(viewer.pk))))
        .exclude(Exists(seat_of.filter(suspended)))
        .select_related("game", "game__host")
        .prefetch_related("game__seats__user")
        .order_by("-created_at")
    )


@dataclass(frozen=True)
class OfferRow:
    """One lobby offer as the page and the API show it to a viewer."""

    offer: SeatOffer
    game_name: str
    players: list[str]
    clock: str
    seated: bool
    can_take: bool


def offer_rows(viewer: User, offers) -> list[OfferRow]:
    """``offers`` (from ``visible_offers``) as rows for ``viewer``."""
    suspended = viewer.is_suspended()
    rows = []
    for offer in offers:
        seats = sorted(offer.game.seats.all(), key=lambda seat: seat.seat)
        seated = any(seat.user_id == viewer.pk for seat in seats)
        rows.append(
            OfferRow(
                offer=offer,
                game_name=offer.game.rules.NAME,
                players=[str(seat.public_name) for seat in seats],
                clock=clock_words(offer.game),
                seated=seated,
                can_take=not seated and not suspended,
            )
        )
    return rows
