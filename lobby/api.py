"""``/api/lobby/``: the open games, putting one in the lobby, one open game, taking a seat,
leaving it before the start and withdrawing one's own (docs/api.md "Lobby", docs/lobby.md)."""

from typing import cast

from django.conf import settings
from django.utils import translation
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from core.api.body import validated_body
from core.api.errors import refused
from core.api.fields import (
    BoundedListField,
    ErrorSerializer,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictSerializer,
)
from core.api.query import QueryBooleanField, QueryParamsSerializer
from core.errors import ServiceError
from games.actions.common import MAX_TURN_HOURS, MIN_TURN_HOURS
from games.api.representation import datetime_json
from games.api.serializers import ClientSeedField, ClockRequestSerializer, ClockSerializer
from games.catalogue import kinds
from games.clocks import clock_json
from lobby import actions, queries
from lobby.models import Closed, OpenGame

_LANGUAGE_CODES = [code for code, _name in settings.LANGUAGES]
_STATUS_WORDS = ["open", *(value for value in Closed.values if value)]


class OpenGameSerializer(serializers.Serializer):
    """An open game as ``open_game_json`` writes it (this documents the shape)."""

    id = serializers.UUIDField(help_text="The game's id (GET /api/games/{id}/ once seated).")
    game = serializers.CharField(help_text="Which game, by its catalogue name.")
    status = serializers.ChoiceField(
        choices=_STATUS_WORDS,
        help_text="`open` (in the lobby), `started` (every seat taken), `expired`, "
        "`withdrawn` (by its host) or `cancelled`.",
    )
    seats = serializers.IntegerField(help_text="Players in all, the host included.")
    taken = serializers.IntegerField(help_text="Seats taken: the host's, bots', joiners'.")
    players = serializers.ListField(
        child=serializers.CharField(), help_text="The seated players' names, in seat order."
    )
    host = serializers.CharField(help_text="The host's name.")
    host_rating = serializers.IntegerField(
        help_text="The host's rating at this game as the pages show it (1500 when new)."
    )
    turn_hours = serializers.IntegerField()
    clock = ClockSerializer()
    rated = serializers.BooleanField()
    blind = serializers.BooleanField()
    public = serializers.BooleanField(help_text="Anyone may watch the game once it runs.")
    stand_in_bots = serializers.BooleanField()
    language = serializers.CharField(
        allow_null=True,
        help_text="Only readers of this language (`en`, `de`) may join; null: anyone.",
    )
    rating_min = serializers.IntegerField(allow_null=True, help_text="Null: no lower bound.")
    rating_max = serializers.IntegerField(allow_null=True, help_text="Null: no upper bound.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(help_text="Open seats not taken by then: cancelled.")
    seated = serializers.BooleanField(help_text="You hold a seat at it (as host or joiner).")
    can_join = serializers.BooleanField(
        help_text="You could take a seat now (the limits per hour aside)."
    )


def open_game_json(open_game: OpenGame, viewer: User, *, host_rating: int) -> dict:
    """``open_game`` (its game and seats with users read) as ``viewer`` sees it. ``taken``
    and ``joinable`` are the lobby query's annotations when present, else counted here."""
    game = open_game.game
    seats = sorted(game.seats.all(), key=lambda seat: seat.seat)
    return {
        "id": str(game.id),
        "game": str(game.game),
        "status": open_game.closed or "open",
        "seats": open_game.seats,
        "taken": getattr(open_game, "taken", len(seats)),
        "players": [str(seat.public_name) for seat in seats],
        "host": str(game.host.public_name),
        "host_rating": host_rating,
        "turn_hours": game.turn_hours,
        "clock": clock_json(game),
        "rated": game.rated,
        "blind": game.blind,
        "public": game.public,
        "stand_in_bots": game.stand_in_bots,
        "language": open_game.language or None,
        "rating_min": open_game.rating_min,
        "rating_max": open_game.rating_max,
        "created_at": datetime_json(open_game.created_at),
        "expires_at": datetime_json(open_game.expires_at),
        "seated": any(seat.user_id == viewer.pk for seat in seats),
        "can_join": bool(getattr(open_game, "joinable", False)),
    }


def _single_json(open_game: OpenGame, viewer: User) -> dict:
    return open_game_json(
        open_game, viewer, host_rating=actions.rating_at(open_game.game.host, open_game.game.game)
    )


class LobbyFiltersSerializer(QueryParamsSerializer):
    game = serializers.ChoiceField(choices=[], required=False)
    players = serializers.IntegerField(required=False, min_value=1, max_value=4)
    rated = QueryBooleanField(required=False)
    language = serializers.ChoiceField(choices=_LANGUAGE_CODES, required=False)
    can_join = QueryBooleanField(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        game_field = cast(serializers.ChoiceField, self.fields["game"])
        game_field.choices = kinds()  # the catalogue's games, read per request


_FILTER_PARAMETERS = [
    # The catalogue's games as the URLs were loaded (the filter itself reads it per request).
    OpenApiParameter(
        "game", OpenApiTypes.STR, enum=kinds(), description="Only games of this kind."
    ),
    OpenApiParameter(
        "players",
        {"type": "integer", "minimum": 1, "maximum": 4},
        description="Only games for this many players (1-4).",
    ),
    OpenApiParameter("rated", OpenApiTypes.BOOL, description="Only rated (or unrated) games."),
    OpenApiParameter(
        "language",
        OpenApiTypes.STR,
        enum=_LANGUAGE_CODES,
        description="Only games for readers of this language, and those for anyone.",
    ),
    OpenApiParameter(
        "can_join",
        OpenApiTypes.BOOL,
        description="`true`: only the games you could join now; `false`: the others.",
    ),
]


class OpenGameCreateSerializer(StrictSerializer):
    # "game" and "language" are enums, so that the schema says which values are taken: the
    # catalogue's games (read when the serializer is made, as quick match's seeks do) and
    # the site's languages.
    game = serializers.ChoiceField(
        choices=[], help_text="Which game, by its catalogue name (`piratz`, `rattenscharf`)."
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        game_field = cast(serializers.ChoiceField, self.fields["game"])
        game_field.choices = kinds()

    seats = StrictIntegerField(
        min_value=2, max_value=4, help_text="Players in all, you included (as the game seats)."
    )
    bots = BoundedListField(
        child=StrictCharField(max_length=20),
        max_length=3,
        required=False,
        default=list,
        help_text="A bot level per seat given to a bot (e.g. `careful`); at least one seat "
        "stays open.",
    )
    turn_hours = StrictIntegerField(
        min_value=MIN_TURN_HOURS, max_value=MAX_TURN_HOURS, required=False, default=72
    )
    clock = ClockRequestSerializer(required=False, help_text="As POST /api/games/ takes it.")
    blind = StrictBooleanField(required=False, default=False)
    rated = StrictBooleanField(
        required=False, help_text="Default: rated unless a bot plays (true with a bot: 400)."
    )
    stand_in_bots = StrictBooleanField(required=False, help_text="Default: on for 3-4 players.")
    public = StrictBooleanField(
        required=False, default=True, help_text="Anyone may watch it (default true)."
    )
    client_seed = ClientSeedField(help_text="Your optional share of the shuffle key.")
    language = serializers.ChoiceField(
        choices=_LANGUAGE_CODES,
        required=False,
        help_text="Only people who read this language (`en`, `de`) may join (left out: anyone).",
    )
    rating_spread = StrictIntegerField(
        required=False,
        min_value=1,
        max_value=actions.MAX_RATING_SPREAD,
        help_text="Only people whose rating at the game is within this of yours may join.",
    )
    rating_min = StrictIntegerField(required=False, min_value=0, max_value=actions.MAX_RATING)
    rating_max = StrictIntegerField(required=False, min_value=0, max_value=actions.MAX_RATING)


_NOT_OPEN = OpenApiResponse(
    ErrorSerializer,
    description="`not_found`: no such open game, one no longer open, or one you cannot see.",
)


@extend_schema_view(
    get=extend_schema(
        summary="The lobby: open games you can see, newest first",
        parameters=_FILTER_PARAMETERS,
        responses={
            200: OpenGameSerializer(many=True),
            400: OpenApiResponse(
                ErrorSerializer, description="`invalid`: an unknown or repeated filter."
            ),
        },
    ),
    post=extend_schema(
        summary="Put a new game with open seats in the lobby",
        description="You take seat 0, bots the next ones; the other seats wait for anyone "
        "who meets `language` and the rating range, for `OPEN_GAME_HOURS` (48). The game "
        "starts when the last seat is taken.",
        request=OpenGameCreateSerializer,
        responses={
            201: OpenGameSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description="`invalid`: a player count the game cannot seat, no seat left "
                "open, an unknown bot level, an option the game lacks, a bad range.",
            ),
            403: OpenApiResponse(ErrorSerializer, description="`suspended`."),
            409: OpenApiResponse(
                ErrorSerializer, description="`conflict`: `OPEN_GAMES_PER_USER` open already."
            ),
            429: OpenApiResponse(ErrorSerializer, description="`throttled`: games a day."),
        },
    ),
)
class LobbyView(ListAPIView):
    serializer_class = OpenGameSerializer

    def list(self, request):
        user = cast(User, request.user)
        filters = queries.LobbyFilters(**LobbyFiltersSerializer.read(request))
        games = queries.lobby(user, filters, reader_language=translation.get_language())
        page = self.paginate_queryset(games)
        assert page is not None  # DEFAULT_PAGINATION_CLASS is set
        ratings = queries.host_ratings(page)
        return self.get_paginated_response(
            [
                open_game_json(row, user, host_rating=ratings[(row.game.host_id, row.game.game)])
                for row in page
            ]
        )

    def post(self, request):
        user = cast(User, request.user)
        data = validated_body(OpenGameCreateSerializer, request)
        try:
            open_game = actions.do_create_open_game(user, **data)
        except ServiceError as error:
            raise refused(error) from None
        return Response(_single_json(open_game, user), status.HTTP_201_CREATED)


class OpenGameView(APIView):
    @extend_schema(
        summary="One open game in the lobby",
        responses={200: OpenGameSerializer, 404: _NOT_OPEN},
    )
    def get(self, request, game_id):
        user = cast(User, request.user)
        try:
            open_game = queries.open_game_for(user, game_id)
        except ServiceError as error:
            raise refused(error) from None
        return Response(_single_json(open_game, user))


class JoinRequestSerializer(StrictSerializer):
    client_seed = ClientSeedField(help_text="Your optional share of the shuffle key.")


@extend_schema(
    summary="Take an open seat; the game starts when it was the last",
    request=JoinRequestSerializer,
    responses={
        200: OpenGameSerializer,
        403: OpenApiResponse(ErrorSerializer, description="`suspended`."),
        404: _NOT_OPEN,
        409: OpenApiResponse(
            ErrorSerializer,
            description="`conflict`: a seat there already, or a language or rating the "
            "game does not ask for.",
        ),
        429: OpenApiResponse(
            ErrorSerializer, description="`throttled`: `LOBBY_JOINS_PER_HOUR` seats an hour."
        ),
    },
)
class JoinView(APIView):
    def post(self, request, game_id):
        user = cast(User, request.user)
        data = validated_body(JoinRequestSerializer, request)
        try:
            open_game, _started = actions.do_join_open_game(
                game_id,
                user,
                reader_language=translation.get_language(),
                client_seed=data.get("client_seed"),
            )
        except ServiceError as error:
            raise refused(error) from None
        return Response(_single_json(open_game, user))


@extend_schema(
    summary="Leave an open game you joined, before it starts: your seat is open again",
    request=None,
    responses={
        200: OpenGameSerializer,
        403: OpenApiResponse(
            ErrorSerializer, description="`not_host`: it is your game (withdraw it instead)."
        ),
        404: OpenApiResponse(
            ErrorSerializer,
            description="`not_found`: no such open game, or you hold no seat at it.",
        ),
        409: OpenApiResponse(
            ErrorSerializer, description="`game_not_active`: it has started or closed."
        ),
    },
)
class LeaveView(APIView):
    def post(self, request, game_id):
        user = cast(User, request.user)
        try:
            open_game = actions.do_leave_open_game(game_id, user)
        except ServiceError as error:
            raise refused(error) from None
        return Response(_single_json(open_game, user))


@extend_schema(
    summary="Withdraw your open game: it is cancelled, and those who joined are told",
    request=None,
    responses={
        200: OpenGameSerializer,
        403: OpenApiResponse(ErrorSerializer, description="`not_host`: you joined it."),
        404: _NOT_OPEN,
        409: OpenApiResponse(ErrorSerializer, description="`game_not_active`: closed already."),
    },
)
class WithdrawView(APIView):
    def post(self, request, game_id):
        user = cast(User, request.user)
        try:
            open_game = actions.do_withdraw_open_game(game_id, user)
        except ServiceError as error:
            raise refused(error) from None
        return Response(_single_json(open_game, user))
