"""The filters of ``GET /api/games/``: by status, and the games where it is your turn."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from accounts.models import User
from core.api.query import QueryBooleanField, QueryParamsSerializer
from games import queries
from games.models import GameStatus


class GameListFilters(QueryParamsSerializer):
    """``?status=`` (a game JSON's ``status``) and ``?my_turn=true|false``; nothing else
    but ``page``."""

    status = serializers.ChoiceField(choices=GameStatus.values, required=False)
    my_turn = QueryBooleanField(required=False)


# The same parameters for the schema (drf-spectacular reads no serializer for a GET's query).
PARAMETERS = [
    OpenApiParameter(
        "status",
        OpenApiTypes.STR,
        enum=GameStatus.values,
        description="Only the games with this `status` (as the game's JSON says it).",
    ),
    OpenApiParameter(
        "my_turn",
        OpenApiTypes.BOOL,
        description="`true`: only the active games where it is your turn (a seat a "
        "stand-in bot plays for you is not); `false`: all the others.",
    ),
]


def filtered(games, user: User, filters: dict):
    """``games`` (a queryset of ``user``'s games) narrowed by ``GameListFilters``' values."""
    if "status" in filters:
        games = games.filter(status=filters["status"])
    if "my_turn" in filters:
        waiting = queries.games_waiting_on(user).values("pk")
        games = (
            games.filter(pk__in=waiting) if filters["my_turn"] else games.exclude(pk__in=waiting)
        )
    return games
