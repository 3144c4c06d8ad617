"""The caller's standing order for timeouts in one game: read it, replace it."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.response import Response

from core.api.body import validated_body
from core.api.errors import ApiError, refused
from core.api.fields import BoundedListField, ErrorSerializer, StrictSerializer
from games import actions, queries
from games.actions.play import standing_order_choices
from games.catalogue import all_specs

_DESCRIPTION = (
    "When your deadline passes, the service plays `pass` naming the first treasure type "
    "on your standing order that at least one face-up card shows, burying as rules P24 "
    "does; when none does (or in a rat alert) it plays P24's own choice. The move is "
    "automatic like any P24 move, so rules P25 (abandonment) still applies. An empty "
    "list means P24 alone. Only you see your standing order. A game whose rules have no "
    "treasure types (Rattenscharf: R35 chooses every automatic placement) has no standing "
    "orders: `choices` is empty and only an empty list is accepted."
)


def _known_treasures() -> list[str]:
    """Every treasure type some registered game's rules know, in the rules' own order."""
    names = [t for spec in all_specs() for t in getattr(spec.rules, "TREASURES", ())]
    return list(dict.fromkeys(names))


# Each type at most once: no standing order is longer than the list of all of them.
MAX_STANDING_ORDER_LENGTH = len(_known_treasures())


# The schema names the treasure types and says "each at most once": a list the schema
# accepts is then one the service accepts (for the game whose types they are). The service
# keeps its own check and message (games.actions.play), which knows the game.
@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "string", "enum": _known_treasures()},
        "uniqueItems": True,
        "maxItems": MAX_STANDING_ORDER_LENGTH,
    }
)
class _TreasureListField(BoundedListField):
    pass


class StandingOrderRequestSerializer(StrictSerializer):
    standing_order = _TreasureListField(
        child=serializers.CharField(),
        max_length=MAX_STANDING_ORDER_LENGTH,
        help_text="Treasure types, first choice first, each at most once "
        "(for Piratz: rings, coins, pearls, gems, goblets, shells).",
    )


class StandingOrderSerializer(serializers.Serializer):
    standing_order = serializers.ListField(
        child=serializers.CharField(), help_text="Your treasure types, first choice first."
    )
    choices = serializers.ListField(
        child=serializers.CharField(), help_text="The treasure types this game's rules know."
    )


def _answer(seat) -> Response:
    return Response(
        {
            "standing_order": seat.standing_order,
            "choices": standing_order_choices(seat.game.rules),
        }
    )


@extend_schema(
    methods=["GET"],
    summary="Your standing order for timeouts in this game",
    description=_DESCRIPTION,
    responses={
        200: StandingOrderSerializer,
        403: OpenApiResponse(
            ErrorSerializer,
            description="`not_a_player`: you may see the game (staff) but hold no seat in it.",
        ),
    },
)
@extend_schema(
    methods=["PUT"],
    summary="Replace your standing order for timeouts in this game",
    description=_DESCRIPTION,
    request=StandingOrderRequestSerializer,
    responses={
        200: StandingOrderSerializer,
        400: OpenApiResponse(
            ErrorSerializer,
            description="`invalid`: not a list of names, an unknown treasure type, one "
            "named twice, or any name in a game without standing orders.",
        ),
        403: OpenApiResponse(
            ErrorSerializer,
            description="`not_a_player`: you may see the game (staff) but hold no seat in it.",
        ),
        409: OpenApiResponse(ErrorSerializer, description="`game_not_active`: the game has ended."),
    },
)
@api_view(["GET", "PUT"])
def standing_order(request, game_id):
    if request.method == "PUT":
        data = validated_body(StandingOrderRequestSerializer, request)
        try:
            seat = actions.do_set_standing_order(game_id, request.user, data["standing_order"])
        except actions.ServiceError as error:
            raise refused(error) from None
        return _answer(seat)
    try:
        game = queries.get_visible_game(request.user, game_id)
    except actions.ServiceError as error:
        raise refused(error) from None
    own_seat = next((s for s in game.seats.all() if s.user_id == request.user.id), None)
    if own_seat is None:
        raise ApiError(
            403, "not_a_player", _("You hold no seat in this game, so you have no standing order.")
        )
    own_seat.game = game
    return _answer(own_seat)
