"""Taking your seat back from the stand-in bot that plays it (docs/bots.md "Bots at the table")."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.decorators import api_view

from core.api.errors import refused
from core.api.fields import ErrorSerializer
from games import actions
from games.api.responses import game_response
from games.api.serializers import GameSerializer


@extend_schema(
    summary="Take your seat back from the bot standing in for you",
    description="A stand-in bot plays your seat after you timed out several turns in a "
    "row, instead of abandoning the game (rules P25), or because a moderator handed it "
    "to one. This gives it back to you: when the game waits for your seat, your turn "
    "starts now with a fresh clock. Logged.",
    request=None,
    responses={
        200: GameSerializer,
        403: OpenApiResponse(
            ErrorSerializer,
            description="`not_a_player`: you may see the game (staff) but hold no seat in "
            "it; `suspended`: a moderator's suspension of your account runs.",
        ),
        409: OpenApiResponse(
            ErrorSerializer,
            description="`game_not_active`; `not_standing_in`: no bot stands in for you "
            "in this game (you play your seat already); `conflict`: you resigned, and the "
            "bot keeps your seat.",
        ),
    },
)
@api_view(["POST"])
def take_back(request, game_id):
    try:
        game = actions.do_take_back_seat(game_id, request.user)
    except actions.ServiceError as error:
        raise refused(error) from None
    return game_response(request, game)
