"""``/api/ratings/{game}/`` (a game's leaderboard) and ``/api/players/{name}/ratings/`` (one
player's ratings with their history): read-only, for any signed-in client (docs/api.md)."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.generics import ListAPIView
from rest_framework.response import Response

from core.api.errors import ApiError
from games import players
from games.catalogue import kinds

from . import service
from .representation import change_json, rating_json


class RatingSerializer(serializers.Serializer):
    """A player's rating at one game (``rating_json``: this documents the shape)."""

    game = serializers.CharField(help_text="The game, by its catalogue name.")
    rating = serializers.IntegerField(
        help_text="The model's ordinal, mu - 3 sigma, rounded (a new player's is 0; it may "
        "be negative)."
    )
    display = serializers.IntegerField(
        help_text="The rating the pages show: 1500 + 20 x the ordinal, rounded, never below 0 "
        "(a new player's is 1500)."
    )
    provisional = serializers.BooleanField(help_text="Fewer than 5 rated games so far.")
    games = serializers.IntegerField(help_text="Rated games played.")
    mu = serializers.FloatField(help_text="The model's estimate of the player's skill.")
    sigma = serializers.FloatField(help_text="Its uncertainty.")
    ordinal = serializers.FloatField(help_text="mu - 3 sigma, unrounded.")
    updated = serializers.DateTimeField(help_text="When the last rated game finished.")


class LeaderboardEntrySerializer(RatingSerializer):
    place = serializers.IntegerField(help_text="The place on the leaderboard, 1 the best.")
    name = serializers.CharField(help_text="The player's public name.")


class RatingChangeSerializer(serializers.Serializer):
    at = serializers.DateTimeField(help_text="When the game finished.")
    place = serializers.IntegerField(
        help_text="The player's place in it: 1 for the winners (who share it); resigned "
        "players last."
    )
    players = serializers.IntegerField()
    rating_before = serializers.IntegerField(help_text="The ordinal before, rounded.")
    rating_after = serializers.IntegerField(help_text="The ordinal after, rounded.")
    display_before = serializers.IntegerField(help_text="The shown rating before.")
    display_after = serializers.IntegerField(help_text="The shown rating after.")
    mu = serializers.FloatField(help_text="mu after the game.")
    sigma = serializers.FloatField(help_text="sigma after the game.")


class RatingWithHistorySerializer(RatingSerializer):
    history = RatingChangeSerializer(
        many=True, help_text="The latest 50 rated games at this game, newest first."
    )


class PlayerRatingsSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The player's public name.")
    ratings = RatingWithHistorySerializer(
        many=True, help_text="One per game the player has played rated, by game name."
    )


def _kind_parameter() -> OpenApiParameter:
    return OpenApiParameter(
        "game",
        str,
        OpenApiParameter.PATH,
        enum=kinds(),
        description="The game, by its catalogue name.",
    )


def _unknown_game(kind: str) -> ApiError:
    return ApiError(
        404,
        "not_found",
        _("There is no game called %(game)r; the games are: %(games)s.")
        % {"game": kind, "games": ", ".join(kinds())},
    )


class LeaderboardView(ListAPIView):
    """A game's leaderboard, paginated as every list of the API."""

    serializer_class = LeaderboardEntrySerializer

    @extend_schema(
        summary="A game's leaderboard",
        description="Players with 5 rated games or more at this game, best rating first. "
        "Players with fewer are provisional and not listed.",
        parameters=[_kind_parameter()],
    )
    def get(self, request, game: str):
        if game not in kinds():
            raise _unknown_game(game)
        page = self.paginate_queryset(service.leaderboard(game))
        assert page is not None  # the API always paginates (REST_FRAMEWORK settings)
        paginator = self.paginator
        first = paginator.page.start_index() if paginator is not None else 1  # type: ignore[attr-defined]
        entries = [
            {"place": first + index, "name": rating.user.public_name, **rating_json(rating)}
            for index, rating in enumerate(page)
        ]
        return self.get_paginated_response(entries)


@extend_schema(
    summary="A player's ratings, with their history",
    description="The player by the name the site shows them by (chosen, or derived from "
    "their address when they chose none; in any case or look-alike form): exactly one "
    "living person is shown by a name. 404 `not_found` for a name that is nobody's.",
    parameters=[
        OpenApiParameter(
            "name", str, OpenApiParameter.PATH, description="The player's public name."
        )
    ],
    responses={200: PlayerRatingsSerializer},
)
@api_view(["GET"])
def player_ratings(request, name: str) -> Response:
    player = players.player_named(name)
    if player is None:
        raise ApiError(404, "not_found", _("No player has this name."))
    ratings = [
        {**rating_json(rating), "history": [change_json(change) for change in changes]}
        for rating, changes in service.ratings_of(player)
    ]
    return Response({"name": player.public_name, "ratings": ratings})
