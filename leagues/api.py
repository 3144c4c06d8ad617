"""``/api/leagues/``: the caller's leagues, creating one, and one league with its
standings and games (docs/api.md, docs/leagues.md)."""

from typing import cast

from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
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
from core.errors import ServiceError
from games.api.representation import datetime_json
from games.catalogue import kinds
from leagues import actions, queries
from leagues.models import League, LeagueFormat
from leagues.standings import standings


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    name = serializers.CharField()
    played = serializers.IntegerField()
    points = serializers.FloatField(
        help_text="Per finished game: 1 per opponent finished ahead of, ½ per tie."
    )
    wins = serializers.IntegerField()
    score = serializers.IntegerField(help_text="The sum of game scores (second tie-break).")
    left = serializers.BooleanField(help_text="The player left the league.")


class LeagueGameSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    round = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField(), help_text="Names, seat order.")
    status = serializers.CharField(
        help_text="`scheduled` or `cancelled` before a game exists; then the game's status."
    )
    game_id = serializers.UUIDField(allow_null=True)


class LeagueSerializer(serializers.Serializer):
    """A league as ``league_json`` writes it (this documents the shape)."""

    id = serializers.UUIDField()
    name = serializers.CharField()
    organiser = serializers.CharField()
    game = serializers.CharField()
    blind = serializers.BooleanField()
    turn_hours = serializers.IntegerField()
    format = serializers.ChoiceField(choices=LeagueFormat.values)
    group_size = serializers.IntegerField()
    max_running = serializers.IntegerField()
    status = serializers.CharField(
        help_text="`invited` (waiting for answers), `active`, `finished` or `cancelled`."
    )
    members = serializers.ListField(child=serializers.CharField(), help_text="Names.")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    ended_at = serializers.DateTimeField(allow_null=True)


class LeagueDetailSerializer(LeagueSerializer):
    standings = StandingSerializer(many=True)
    games = LeagueGameSerializer(many=True)


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "string", "minLength": 1, "maxLength": 254},
        "minItems": 2,
        "maxItems": actions.MAX_PLAYERS,
        # The same address or name twice is the same person, whom a league takes once.
        "uniqueItems": True,
    }
)
class _LeaguePlayersField(BoundedListField):
    pass


class LeagueCreateSerializer(StrictSerializer):
    name = StrictCharField(max_length=actions.NAME_MAX_LENGTH)
    players = _LeaguePlayersField(
        child=StrictCharField(max_length=254),
        min_length=2,
        max_length=actions.MAX_PLAYERS,
        help_text="Email addresses or display names, each person once; your own to play "
        "too. At least 2 (a round robin); groups of 3-4 need 3, 4 or at least 6.",
    )
    # Left out: the catalogue's first game (leagues.actions.do_create_league).
    game = serializers.ChoiceField(choices=[], required=False)
    blind = StrictBooleanField(required=False, default=False)
    turn_hours = StrictIntegerField(required=False, default=72, min_value=1, max_value=720)
    format = serializers.ChoiceField(
        choices=LeagueFormat.values, required=False, default="round_robin"
    )
    group_size = StrictIntegerField(required=False, default=4, min_value=3, max_value=4)
    max_running = StrictIntegerField(required=False, default=2, min_value=1, max_value=20)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The catalogue's games, read per request (GAME_PACKAGES decides), as a new game's.
        game_field = cast(serializers.ChoiceField, self.fields["game"])
        game_field.choices = kinds()


def league_json(league: League, *, detail: bool) -> dict:
    members = [m for m in league.members.select_related("user") if m.declined_at is None]
    data = {
        "id": str(league.id),
        "name": league.name,
        "organiser": league.organiser.public_name,
        "game": league.game,
        "blind": league.blind,
        "turn_hours": league.turn_hours,
        "format": league.format,
        "group_size": league.group_size,
        "max_running": league.max_running,
        "status": league.status,
        "members": [m.user.public_name for m in members],
        "created_at": datetime_json(league.created_at),
        "started_at": datetime_json(league.started_at),
        "ended_at": datetime_json(league.ended_at),
    }
    if detail:
        data["standings"] = [
            {key: row[key] for key in ("rank", "name", "played", "points", "wins", "score", "left")}
            for row in standings(league)
        ]
        data["games"] = [
            {
                "number": row["number"],
                "round": row["round"],
                "players": row["players"],
                "status": row["status"],
                "game_id": str(row["game_id"]) if row["game_id"] else None,
            }
            for row in queries.games_of(league)
        ]
    return data


@extend_schema_view(
    get=extend_schema(
        summary="Your leagues, newest first",
        responses={200: LeagueSerializer(many=True)},
    ),
    post=extend_schema(
        summary="Create a league",
        description="Every player but you is emailed one invitation for all the league's "
        "games; when everyone has answered, the schedule is made and the first games start "
        "a moment later (at most `max_running` running per player). At most "
        "`LEAGUES_PER_USER_PER_DAY` (3) a day.",
        request=LeagueCreateSerializer,
        responses={
            201: LeagueDetailSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description="`invalid`: an unknown game, a format the game cannot play, a "
                "name nobody has, a player twice, a player count the format cannot seat.",
            ),
            403: OpenApiResponse(ErrorSerializer, description="`suspended`."),
            429: OpenApiResponse(ErrorSerializer, description="`throttled`."),
        },
    ),
)
class LeaguesView(ListAPIView):
    serializer_class = LeagueSerializer

    def list(self, request):
        user = cast(User, request.user)
        page = self.paginate_queryset(queries.leagues_of(user).select_related("organiser"))
        assert page is not None  # DEFAULT_PAGINATION_CLASS is set
        return self.get_paginated_response([league_json(league, detail=False) for league in page])

    def post(self, request):
        user = cast(User, request.user)
        data = validated_body(LeagueCreateSerializer, request)
        try:
            league = actions.do_create_league(user, **data)
        except ServiceError as error:
            raise refused(error) from None
        return Response(league_json(league, detail=True), status.HTTP_201_CREATED)


class LeagueView(APIView):
    @extend_schema(
        summary="One league: standings and games",
        description="For its organiser, its members and staff; anyone else `not_found`.",
        responses={200: LeagueDetailSerializer},
    )
    def get(self, request, league_id):
        user = cast(User, request.user)
        try:
            league = queries.visible_league(user, league_id)
        except ServiceError as error:
            raise refused(error) from None
        return Response(league_json(league, detail=True))
