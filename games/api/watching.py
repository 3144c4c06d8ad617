"""Watching games and "Next game" (docs/api.md "Watching games", "Next game"): the public games
(``GET /api/games/public/``, anyone), the host's choice of who watches (``POST
/api/games/{id}/spectators/``) and the game where your move is due soonest (``GET
/api/games/next/``)."""

from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from core.api.body import validated_body
from core.api.errors import refused
from core.api.fields import (
    ErrorSerializer,
    StrictBooleanField,
    StrictIntegerField,
    StrictSerializer,
)
from core.api.query import QueryBooleanField, QueryParamsSerializer
from core.errors import ServiceError
from games import queries, watching
from games.actions.spectators import do_set_spectators
from games.api.moves import VERSION_MAX
from games.api.representation import datetime_json
from games.api.responses import game_response
from games.api.serializers import GameSerializer
from games.catalogue import kinds
from games.models import Game, GameStatus

# --- The public games -----------------------------------------------------------------------


class PublicGameFilters(QueryParamsSerializer):
    """``?game=`` (a kind of game) and ``?ended=true|false``; nothing else but ``page``."""

    game = serializers.ChoiceField(choices=[], required=False)
    ended = QueryBooleanField(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The catalogue's games, read per request (GAME_PACKAGES decides), as the create body.
        self.fields["game"].choices = kinds()  # type: ignore[attr-defined]


class PublicGameSerializer(serializers.Serializer):
    """A public game as ``public_game_json`` writes it (this documents the shape)."""

    id = serializers.UUIDField()
    game = serializers.CharField(help_text="The game, by its catalogue name.")
    status = serializers.ChoiceField(
        choices=[GameStatus.ACTIVE, GameStatus.FINISHED, GameStatus.ABORTED]
    )
    players = serializers.ListField(
        child=serializers.CharField(), help_text="The seats' short labels, in seat order."
    )
    round = serializers.IntegerField(allow_null=True)
    current_seat = serializers.IntegerField(
        allow_null=True, help_text="The seat to move while the game is played; else null."
    )
    winners = serializers.ListField(
        child=serializers.IntegerField(), help_text="The winners' seats once finished; else []."
    )
    blind = serializers.BooleanField()
    rated = serializers.BooleanField()
    talk_public = serializers.BooleanField(help_text="Spectators read its table talk.")
    started_at = serializers.DateTimeField(allow_null=True)
    ended_at = serializers.DateTimeField(allow_null=True)
    url = serializers.CharField(help_text="The game's table page, to watch it.")


def public_game_json(game: Game) -> dict:
    """One public game for the list: who plays, where it stands, no table (no state)."""
    seats = sorted(game.seats.all(), key=lambda s: s.seat)
    finished = game.status == GameStatus.FINISHED
    return {
        "id": str(game.id),
        "game": str(game.game),
        "status": str(game.status),
        "players": [str(s.public_name) for s in seats],
        "round": game.round,
        "current_seat": game.current_seat if game.status == GameStatus.ACTIVE else None,
        "winners": list((game.result or {}).get("winners", [])) if finished else [],
        "blind": game.blind,
        "rated": game.rated,
        "talk_public": game.talk_public,
        "started_at": datetime_json(game.started_at),
        "ended_at": datetime_json(game.ended_at),
        "url": reverse("games:game", args=[game.id]),
    }


@extend_schema(
    summary="Public games being played now, or ended lately",
    description="Anyone, signed in or not. Without `ended`, the public games being played, "
    "the latest move first; with `ended=true`, those that ended (finished or aborted) "
    "within the last 7 days, the latest end first. Watch one with GET /api/games/{id}/ "
    "and its moves.",
    parameters=[
        OpenApiParameter(
            "game",
            OpenApiTypes.STR,
            enum=kinds(),
            description="Only games of this kind (its catalogue name).",
        ),
        OpenApiParameter(
            "ended",
            OpenApiTypes.BOOL,
            description="`true`: the games that ended lately instead of those being played.",
        ),
    ],
    responses={
        200: PublicGameSerializer(many=True),
        400: OpenApiResponse(
            ErrorSerializer,
            description="`invalid`: an unknown query parameter, one given twice, or a value "
            "the schema does not allow.",
        ),
    },
)
class PublicGamesView(ListAPIView):
    serializer_class = PublicGameSerializer
    permission_classes = [AllowAny]

    def list(self, request):
        filters = PublicGameFilters.read(request)
        games = watching.public_games(kind=filters.get("game"), ended=filters.get("ended", False))
        page = self.paginate_queryset(games)
        assert page is not None  # DEFAULT_PAGINATION_CLASS is set: the list is paged
        return self.get_paginated_response([public_game_json(game) for game in page])


# --- Next game ------------------------------------------------------------------------------


class NextGameSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    game = serializers.CharField(help_text="The game, by its catalogue name.")
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the turn ends (null while the game is paused)."
    )
    url = serializers.CharField(help_text="The game's table page.")


@extend_schema(
    summary="The game where your move is due soonest",
    description="Of the active games where it is your turn (a seat a stand-in bot plays for "
    "you is not), the one with the nearest deadline; paused games (no deadline) last.",
    responses={
        200: NextGameSerializer,
        404: OpenApiResponse(
            ErrorSerializer, description="`not_found`: no game waits for your move."
        ),
    },
)
@api_view(["GET"])
def next_game(request):
    game = queries.next_game_waiting_on(request.user)
    if game is None:
        raise refused(ServiceError("not_found", _("No game waits for your move just now.")))
    return Response(
        {
            "id": str(game.id),
            "game": str(game.game),
            "deadline": datetime_json(game.deadline),
            "url": reverse("games:game", args=[game.id]),
        }
    )


# --- The host's choice of who watches ---------------------------------------------------------


class SpectatorsRequestSerializer(StrictSerializer):
    public = StrictBooleanField(
        help_text="Anyone may watch the game (false: its players and staff only)."
    )
    talk_public = StrictBooleanField(
        required=False,
        help_text="Spectators read the table talk too: a public game's only. Left out, it "
        "stays as it is while the game stays public; making the game private closes it.",
    )
    version = StrictIntegerField(
        required=False,
        min_value=0,
        max_value=VERSION_MAX,
        help_text="The game version you decided from (optional; refused when stale).",
    )


@extend_schema(
    summary="Choose who may watch the game (host only)",
    description="While the game waits for acceptances or is played. What is so already "
    "changes nothing. The players see the choice at the table.",
    request=SpectatorsRequestSerializer,
    responses={
        200: GameSerializer,
        403: OpenApiResponse(
            ErrorSerializer,
            description="`not_a_player`: staff without a seat; `not_host`: you do not hold "
            "the host's chair; `suspended`.",
        ),
        409: OpenApiResponse(
            ErrorSerializer,
            description="`game_not_active`: the game has ended; `stale_version`; "
            "`conflict`: you resigned, or the talk of a game that is not public.",
        ),
    },
)
@api_view(["POST"])
def spectators(request, game_id):
    data = validated_body(SpectatorsRequestSerializer, request)
    try:
        game = do_set_spectators(
            game_id,
            request.user,
            public=data["public"],
            talk_public=data.get("talk_public"),
            version=data.get("version"),
        )
    except ServiceError as error:
        raise refused(error) from None
    return game_response(request, game)
