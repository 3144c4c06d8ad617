"""Playing together (docs/api.md "Playing together"): resign, the host's pause, resume and
extension, a rematch. Each view parses the body, calls its action (``games.actions.together``) and
answers the game; a refused request changed nothing."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import api_view

from core.api.body import validated_body
from core.api.errors import refused
from core.api.fields import (
    ErrorSerializer,
    StrictCharField,
    StrictIntegerField,
    StrictSerializer,
)
from games import actions
from games.actions.together import MAX_EXTEND_HOURS, MAX_REASON_LENGTH, MIN_EXTEND_HOURS
from games.api.moves import VERSION_MAX
from games.api.responses import game_response
from games.api.serializers import GameSerializer


class ResignRequestSerializer(StrictSerializer):
    version = StrictIntegerField(
        min_value=0, max_value=VERSION_MAX, help_text="The game version you decided from."
    )


class ReasonRequestSerializer(StrictSerializer):
    """The host's optional reason, told to every player by email."""

    reason = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=MAX_REASON_LENGTH,
        help_text="Why, in a few words (plain text); every player is told.",
    )


class ExtendRequestSerializer(ReasonRequestSerializer):
    hours = StrictIntegerField(
        min_value=MIN_EXTEND_HOURS,
        max_value=MAX_EXTEND_HOURS,
        help_text="Hours added to the current deadline.",
    )


_NOT_A_PLAYER = "`not_a_player`: you may see the game (staff) but hold no seat in it; "
_SUSPENDED = "`suspended`: a moderator's suspension of your account runs."
_HOST_ONLY = OpenApiResponse(
    ErrorSerializer,
    description=_NOT_A_PLAYER
    + "`not_host`: you do not hold the host's chair (the game's `host` seat); "
    + _SUSPENDED,
)
# After resigning, the host's chair is never yours again (docs/decisions/0005).
_RESIGNED = "`conflict`: you resigned, so the host's chair is not yours"


@extend_schema(
    summary="Resign (P26, R37)",
    description="Final. With two players the game ends at once (`finished`) and the other "
    "player wins; with three or four a stand-in bot plays your seat to the end and you "
    'cannot win. Logged as `{"action": "resign"}`; the version grows by 1.',
    request=ResignRequestSerializer,
    responses={
        200: GameSerializer,
        403: OpenApiResponse(ErrorSerializer, description=_NOT_A_PLAYER + _SUSPENDED),
        409: OpenApiResponse(
            ErrorSerializer,
            description="`stale_version`, `game_not_active`; `conflict`: you resigned already.",
        ),
    },
)
@api_view(["POST"])
def resign(request, game_id):
    data = validated_body(ResignRequestSerializer, request)
    try:
        game = actions.do_resign(game_id, request.user, data["version"])
    except actions.ServiceError as error:
        raise refused(error) from None
    return game_response(request, game)


@extend_schema(
    summary="Pause the game's clock (host only)",
    description="No deadline, no reminders, no timeouts; moves are still taken, and a turn "
    "that starts meanwhile starts unclocked. After PAUSE_MAX_DAYS the game resumes by "
    "itself. Every player is emailed, with your reason.",
    request=ReasonRequestSerializer,
    responses={
        200: GameSerializer,
        403: _HOST_ONLY,
        409: OpenApiResponse(
            ErrorSerializer,
            description="`game_not_active`; `paused`: paused already; " + _RESIGNED + ".",
        ),
    },
)
@api_view(["POST"])
def pause(request, game_id):
    data = validated_body(ReasonRequestSerializer, request)
    try:
        game = actions.do_pause_game(game_id, request.user, data.get("reason", ""))
    except actions.ServiceError as error:
        raise refused(error) from None
    return game_response(request, game)


@extend_schema(
    summary="Resume the paused game's clock (host only)",
    description="The turn under way gets back the time it had left when paused; a turn "
    "that began while paused gets a whole turn. Every player is emailed.",
    request=ReasonRequestSerializer,
    responses={
        200: GameSerializer,
        403: _HOST_ONLY,
        409: OpenApiResponse(
            ErrorSerializer,
            description="`game_not_active`; `conflict`: the game is not paused; " + _RESIGNED + ".",
        ),
    },
)
@api_view(["POST"])
def resume(request, game_id):
    data = validated_body(ReasonRequestSerializer, request)
    try:
        game = actions.do_resume_game(game_id, request.user, data.get("reason", ""))
    except actions.ServiceError as error:
        raise refused(error) from None
    return game_response(request, game)


@extend_schema(
    summary="Give the turn under way more time (host only, once per turn)",
    description="`hours` (1-168) are added to the current deadline. Every player is "
    "emailed, with your reason.",
    request=ExtendRequestSerializer,
    responses={
        200: GameSerializer,
        403: _HOST_ONLY,
        409: OpenApiResponse(
            ErrorSerializer,
            description="`game_not_active`; `paused`: resume it first; `conflict`: extended "
            "this turn already, or a bot is to move; " + _RESIGNED + ".",
        ),
    },
)
@api_view(["POST"])
def extend(request, game_id):
    data = validated_body(ExtendRequestSerializer, request)
    try:
        game = actions.do_extend_turn(game_id, request.user, data["hours"], data.get("reason", ""))
    except actions.ServiceError as error:
        raise refused(error) from None
    return game_response(request, game)


@extend_schema(
    summary="A rematch of a game that has ended",
    description="A new game of the same kind, options and turn_hours, the same people with "
    "the seat order turned by one, you as its host, the others invited as usual (bots "
    "seated again; a player who deleted their account left out). One per game: asked "
    "again, by anyone, it answers that game (200).",
    request=None,
    responses={
        200: GameSerializer,
        201: GameSerializer,
        403: OpenApiResponse(ErrorSerializer, description=_NOT_A_PLAYER + _SUSPENDED),
        409: OpenApiResponse(
            ErrorSerializer,
            description="`game_not_active`: the game has not ended; `conflict`: a player "
            "deleted their account and too few players are left for the game.",
        ),
    },
)
@api_view(["POST"])
def rematch(request, game_id):
    try:
        game, created = actions.do_rematch(game_id, request.user)
    except actions.ServiceError as error:
        raise refused(error) from None
    return game_response(request, game, status.HTTP_201_CREATED if created else status.HTTP_200_OK)
