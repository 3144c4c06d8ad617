"""Games API views: parse the request, check access, call the service, serialise."""

from typing import cast

from django.db.models import Prefetch
from drf_spectacular.utils import (
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_view,
)
from rest_framework import status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import NotAuthenticated
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from accounts.models import User
from core.api.body import json_object, validated_body
from core.api.errors import refused
from core.api.fields import ErrorSerializer
from games import actions, queries, watching
from games.api import game_list
from games.api.moves import move_schema_of_action, move_serializer_for_action
from games.api.representation import game_json
from games.api.responses import game_response
from games.api.serializers import (
    AcceptRequestSerializer,
    GameCreateSerializer,
    GameSerializer,
    MoveLogSerializer,
    game_create_schemas,
)
from games.movelog import public_log

# Errors only some endpoints answer. Those every endpoint can give (400, 401, 404, 413,
# 429) are added to each operation by core.api.schema.ApiAutoSchema.
_GAME_NOT_ACTIVE = OpenApiResponse(ErrorSerializer, description="`game_not_active`")
# What an endpoint open to anyone (a public game's) answers an anonymous caller of a game
# nobody may watch: sign in, as before public games (the schema adds no 401 to those).
SIGN_IN_FOR_A_PRIVATE_GAME = OpenApiResponse(
    ErrorSerializer,
    description="`not_authenticated`: no or bad credentials, and the game is not public.",
)


@extend_schema_view(
    get=extend_schema(
        summary="Your games, newest first",
        parameters=game_list.PARAMETERS,
        responses={
            200: GameSerializer(many=True),
            400: OpenApiResponse(
                ErrorSerializer,
                description="`invalid`: an unknown query parameter (named), one given "
                "twice, or a value the schema does not allow.",
            ),
        },
    ),
)
class GameListCreateView(ListAPIView):
    serializer_class = GameSerializer

    def get_queryset(self):
        # IsAuthenticated (the default permission) lets only signed-in users here.
        return queries.games_of(cast(User, self.request.user)).order_by("-created_at")

    def list(self, request):
        # The filters first: a mistyped one is refused, not answered with every game.
        filters = game_list.GameListFilters.read(request)
        games = game_list.filtered(self.get_queryset(), request.user, filters)
        # Each game's JSON by game_json, as every other answer; the serializer documents it.
        page = self.paginate_queryset(games)
        assert page is not None  # DEFAULT_PAGINATION_CLASS is set: the list is paged
        return self.get_paginated_response([game_json(game, request.user) for game in page])

    @extend_schema(
        summary="Create a game and invite the other players",
        request=PolymorphicProxySerializer(
            component_name="GameCreate",
            # One shape per game (its player counts, bots and options), told apart by "game".
            serializers=game_create_schemas,  # read when the schema is generated
            resource_type_field_name="game",
        ),
        responses={201: GameSerializer},
    )
    def post(self, request):
        data = validated_body(GameCreateSerializer, request)
        try:
            game = actions.do_create_game(
                request.user,
                data["players"],
                game=data["game"],
                turn_hours=data["turn_hours"],
                blind=data["blind"],
                client_seed=data.get("client_seed"),
                stand_in_bots=data.get("stand_in_bots"),
                rated=data.get("rated"),
                clock=data.get("clock"),
                public=data["public"],
            )
        except actions.ServiceError as error:
            raise refused(error) from None
        return game_response(request, game, status.HTTP_201_CREATED)


def viewing_or_refused(
    request, game_id, *, seats: Prefetch = queries.SEATS_WITH_USERS
) -> watching.Viewing:
    """The game as the caller may look at it (``games.watching.get_viewing``, its seats
    read as ``seats``: a player, staff, or anyone watching a public game), or the refusal:
    ``not_found``, and for an anonymous caller of a game nobody may watch
    ``not_authenticated`` (401), as before public games."""
    try:
        return watching.get_viewing(request.user, game_id, seats=seats)
    except actions.ServiceError as error:
        if not request.user.is_authenticated:
            raise NotAuthenticated() from None
        raise refused(error) from None


@extend_schema(
    summary="One game, as you may see it",
    description="A player sees the game from their seat; staff and anyone watching a public "
    "game (signed in or not) see it as a spectator: `you` null, `state` the view for "
    "nobody.",
    responses={200: GameSerializer, 401: SIGN_IN_FOR_A_PRIVATE_GAME},
)
@api_view(["GET"])
@permission_classes([AllowAny])
def game_detail(request, game_id):
    viewing = viewing_or_refused(request, game_id, seats=queries.SEATS_TO_SHOW)
    return Response(game_json(viewing.game, request.user))


def _invitation_answer(service_call):
    @extend_schema(
        request=None,
        responses={200: GameSerializer, 409: _GAME_NOT_ACTIVE},
    )
    @api_view(["POST"])
    def view(request, game_id):
        try:
            game = service_call(game_id, request.user)
        except actions.ServiceError as error:
            raise refused(error) from None
        return game_response(request, game)

    return view


@extend_schema(
    summary="Accept your seat, optionally with your client seed; the game starts when all have",
    request=AcceptRequestSerializer,
    responses={200: GameSerializer, 409: _GAME_NOT_ACTIVE},
)
@api_view(["POST"])
def accept_invitation(request, game_id):
    # No body, or {"client_seed": ...}: the seed is the player's share of the shuffle key.
    seed = validated_body(AcceptRequestSerializer, request).get("client_seed")
    try:
        game = actions.do_accept_invitation(game_id, request.user, client_seed=seed)
    except actions.ServiceError as error:
        raise refused(error) from None
    return game_response(request, game)


decline_invitation = extend_schema(summary="Decline your seat; the game is cancelled")(
    _invitation_answer(actions.do_decline_invitation)
)


@extend_schema_view(
    get=extend_schema(
        summary="The public log of moves, oldest first",
        description="For the game's players, staff, and anyone watching a public game (signed "
        "in or not). In a blind game still being played (P23) a player sees full entries "
        "from their own last move on, a watcher only the latest one.",
        responses={200: MoveLogSerializer(many=True), 401: SIGN_IN_FOR_A_PRIVATE_GAME},
    ),
    post=extend_schema(
        summary="Play a move chosen from game version `version`",
        request=PolymorphicProxySerializer(
            component_name="Move",
            # One shape per action, told apart by its name (unique across the games).
            # Read when the schema is generated. The stub asks for a dict whose values are
            # typed as a union (dicts are invariant), though any serializer dict works.
            serializers=move_schema_of_action,  # type: ignore[arg-type]
            resource_type_field_name="action",
        ),
        responses={
            200: GameSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description="`invalid`: a malformed move for this game (no such action, a "
                "field it does not take or lacks, a wrong type, no such treasure, card or "
                "strip, a cell off the table); `illegal_action`: well-formed but not legal "
                "now.",
            ),
            403: OpenApiResponse(
                ErrorSerializer,
                description="`not_a_player`: you may see the game (staff) but hold no seat in it.",
            ),
            409: OpenApiResponse(
                ErrorSerializer, description="not_your_turn, stale_version or game_not_active"
            ),
        },
    ),
)
class MoveView(ListAPIView):
    serializer_class = MoveLogSerializer
    pagination_class = (
        None  # a game has at most a few hundred moves: one page is simpler for clients
    )

    def get_permissions(self):
        # The log of a public game is anyone's to read; moves are its players'.
        if self.request.method == "GET":
            return [AllowAny()]
        return super().get_permissions()

    def list(self, request, game_id):
        # The log names seats, not people: the seat rows suffice (and cost far less).
        viewing = viewing_or_refused(request, game_id, seats=queries.SEAT_ROWS)
        # Blind mode (rules P23): what a player may see of the log depends on their seat,
        # and a watcher of a public game sees no more than every player has.
        entries = public_log(viewing.game, viewing.seat, watcher=viewing.watcher)
        return Response(MoveLogSerializer(entries, many=True).data)

    def post(self, request, game_id):
        body = json_object(request)
        # The body is read by the serializer of its action (the schema's discriminator),
        # without reading the game first: a move of another game's kind is well formed,
        # and its engine refuses it as invalid inside do_play_move.
        move = move_serializer_for_action(body.get("action"))(data=body)
        move.is_valid(raise_exception=True)
        try:
            game = actions.do_play_move(
                game_id,
                request.user,
                move.validated_data["version"],
                # Every move serializer has it (GameSpec.move_serializer's contract).
                move.to_action(),  # type: ignore[attr-defined]
            )
        except actions.ServiceError as error:
            raise refused(error) from None
        # The service returns the game with its seats and users prefetched: no re-read.
        return Response(game_json(game, request.user))
