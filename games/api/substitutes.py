"""Offering an absent player's seat to a substitute, and withdrawing the offer (docs/api.md
"Substitutes"). The host's chair only; taking an offer in the lobby is lobby's
(``POST /api/lobby/substitutes/{id}/take/``), an emailed one is taken on its link's page."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view
from rest_framework.response import Response

from core.api.body import validated_body
from core.api.errors import refused
from core.api.fields import (
    ErrorSerializer,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictSerializer,
)
from games.actions import ServiceError, substitutes
from games.api.moves import VERSION_MAX
from games.api.representation import datetime_json
from games.models import SeatOffer


class SeatOfferRequestSerializer(StrictSerializer):
    email = StrictCharField(
        required=False,
        max_length=254,
        help_text="Offer the seat to this address: it gets an email with a link that takes "
        "the seat over. Either this or `lobby`.",
    )
    lobby = StrictBooleanField(
        required=False, help_text="`true`: offer the seat to anyone in the lobby."
    )
    version = StrictIntegerField(
        required=False,
        min_value=0,
        max_value=VERSION_MAX,
        help_text="The game version you decided from (left out: not checked).",
    )


class SeatOfferSerializer(serializers.Serializer):
    """An offer of a seat as ``seat_offer_json`` writes it (this documents the shape)."""

    id = serializers.IntegerField(help_text="The offer's id (the lobby's, to take it).")
    game = serializers.UUIDField()
    seat = serializers.IntegerField(help_text="The seat offered (0 starts).")
    email = serializers.CharField(
        allow_null=True, help_text="The address it was emailed to; null: in the lobby."
    )
    status = serializers.ChoiceField(
        choices=["open", *(value for value in SeatOffer.Closed.values if value)],
        help_text="`open`, `taken` (by a substitute), `withdrawn` (by the host) or `void` "
        "(the player took the seat back, or it ran out and was replaced).",
    )
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()


def seat_offer_json(offer: SeatOffer) -> dict:
    """``offer`` as the host who made it sees it."""
    return {
        "id": offer.pk,
        "game": str(offer.game_id),
        "seat": offer.seat,
        "email": offer.email or None,
        "status": offer.closed or "open",
        "created_at": datetime_json(offer.created_at),
        "expires_at": datetime_json(offer.expires_at),
    }


_HOST_REFUSALS = (
    "`not_a_player`: you may see the game (staff) but hold no seat in it; `not_host`: you do "
    "not hold the host's chair; `suspended`."
)


@extend_schema(
    methods=["POST"],
    summary="Offer an absent player's seat to a substitute (by email or in the lobby)",
    description="The seat must be one a stand-in bot plays for a player who is away "
    "(timeouts, abandonment, a moderator or the host handed it) or who deleted their "
    "account; never a resigned seat (P26, R37: it cannot win) and never the host's own. "
    "One open offer per seat: an emailed one is open `INVITATION_DAYS` (the invitation "
    "limits apply to the address), one in the lobby `OPEN_GAME_HOURS`.",
    request=SeatOfferRequestSerializer,
    responses={
        201: SeatOfferSerializer,
        400: OpenApiResponse(
            ErrorSerializer,
            description="`invalid`: neither or both of `email` and `lobby`, not an address, "
            "no such seat, the host's seat, an address seated at the game already.",
        ),
        403: OpenApiResponse(ErrorSerializer, description=_HOST_REFUSALS),
        409: OpenApiResponse(
            ErrorSerializer,
            description="`game_not_active`, `stale_version`; `conflict`: the seat cannot be "
            "offered (its player plays it, it resigned, a bot's own seat) or is offered "
            "already.",
        ),
        429: OpenApiResponse(
            ErrorSerializer,
            description="`throttled`: the invitation limits, or an address that cannot be "
            "invited now.",
        ),
    },
)
@extend_schema(
    methods=["DELETE"],
    summary="Withdraw the open offer of a seat",
    request=None,
    responses={
        200: SeatOfferSerializer,
        400: OpenApiResponse(ErrorSerializer, description="`invalid`: no such seat."),
        403: OpenApiResponse(ErrorSerializer, description=_HOST_REFUSALS),
        409: OpenApiResponse(
            ErrorSerializer,
            description="`game_not_active`; `conflict`: the seat is not offered.",
        ),
    },
)
@api_view(["POST", "DELETE"])
def seat_offer(request, game_id, seat):
    try:
        if request.method == "DELETE":
            offer = substitutes.do_withdraw_seat_offer(game_id, request.user, seat)
            return Response(seat_offer_json(offer))
        data = validated_body(SeatOfferRequestSerializer, request)
        offer, _token = substitutes.do_offer_seat(
            game_id,
            request.user,
            seat,
            email=data.get("email"),
            lobby=bool(data.get("lobby")),
            version=data.get("version"),
        )
    except ServiceError as error:
        raise refused(error) from None
    return Response(seat_offer_json(offer), status=status.HTTP_201_CREATED)
