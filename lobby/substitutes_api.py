"""``/api/lobby/substitutes/``: the seats of running games offered to anyone, and taking one
over (docs/api.md "Substitutes", docs/lobby.md "Substitutes wanted")."""

from typing import cast

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.views import APIView

from accounts.models import User
from core.api.errors import refused
from core.api.fields import ErrorSerializer
from core.errors import ServiceError
from games.actions.substitutes import do_take_seat_offer
from games.api.representation import datetime_json
from games.api.responses import game_response
from games.api.serializers import ClockSerializer, GameSerializer
from games.clocks import clock_json
from lobby import substitutes


class SubstituteWantedSerializer(serializers.Serializer):
    """A lobby offer as ``substitute_json`` writes it (this documents the shape)."""

    id = serializers.IntegerField(help_text="The offer's id: POST .../{id}/take/ takes it.")
    game_id = serializers.UUIDField(
        help_text="The running game (GET /api/games/{id}/ once seated)."
    )
    game = serializers.CharField(help_text="Which game, by its catalogue name.")
    seat = serializers.IntegerField(help_text="The seat offered (0 starts).")
    players = serializers.ListField(
        child=serializers.CharField(), help_text="The seats' names, in seat order."
    )
    host = serializers.CharField(help_text="The host's name.")
    round = serializers.IntegerField(allow_null=True, help_text="The round under way.")
    turn_hours = serializers.IntegerField()
    clock = ClockSerializer()
    rated = serializers.BooleanField(help_text="Rated for the other seats; never for this one.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(help_text="Not taken by then: no longer offered.")
    seated = serializers.BooleanField(help_text="You hold a seat at this game already.")
    can_take = serializers.BooleanField(help_text="You could take the seat over now.")


def substitute_json(row: substitutes.OfferRow) -> dict:
    game = row.offer.game
    return {
        "id": row.offer.pk,
        "game_id": str(game.id),
        "game": str(game.game),
        "seat": row.offer.seat,
        "players": row.players,
        "host": str(game.host.public_name),
        "round": game.round,
        "turn_hours": game.turn_hours,
        "clock": clock_json(game),
        "rated": game.rated,
        "created_at": datetime_json(row.offer.created_at),
        "expires_at": datetime_json(row.offer.expires_at),
        "seated": row.seated,
        "can_take": row.can_take,
    }


@extend_schema(
    summary="Substitutes wanted: running games' seats offered to anyone, newest first",
    responses={200: SubstituteWantedSerializer(many=True)},
)
class SubstitutesView(ListAPIView):
    serializer_class = SubstituteWantedSerializer

    def list(self, request):
        user = cast(User, request.user)
        page = self.paginate_queryset(substitutes.visible_offers(user))
        assert page is not None  # DEFAULT_PAGINATION_CLASS is set
        return self.get_paginated_response(
            [substitute_json(row) for row in substitutes.offer_rows(user, page)]
        )


@extend_schema(
    summary="Take a seat offered in the lobby over: it is yours to the end",
    description="Its stand-in bot leaves it and you play it from where it stands (its moves "
    "and score stay); its player loses it and is told. When the game waits for that seat, "
    "your turn starts now. Exactly one of two people taking it at once gets it.",
    request=None,
    responses={
        200: GameSerializer,
        403: OpenApiResponse(ErrorSerializer, description="`suspended`."),
        404: OpenApiResponse(
            ErrorSerializer,
            description="`not_found`: no such offer, or it is no longer open (taken, "
            "withdrawn, run out), or one you cannot see.",
        ),
        409: OpenApiResponse(
            ErrorSerializer,
            description="`conflict`: you hold a seat at this game already; the seat is "
            "no longer one to offer.",
        ),
    },
)
class TakeSubstituteView(APIView):
    def post(self, request, offer_id):
        user = cast(User, request.user)
        try:
            game = do_take_seat_offer(offer_id, user)
        except ServiceError as error:
            raise refused(error) from None
        return game_response(request, game)
