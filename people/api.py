"""``/api/people/``: whom the caller follows and has blocked, and the games they follow
(docs/api.md "People", docs/people.md). Players are named by their page address
(``User.public_id``, as in ``/people/<public id>/``), never by email address."""

from typing import cast

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from core.api.body import validated_body
from core.api.errors import refused
from core.api.fields import ErrorSerializer, StrictCharField, StrictSerializer, StrictUUIDField
from core.errors import ServiceError
from games.api.representation import datetime_json
from people import actions, queries
from people.models import Block, Follow, FollowedGame

# A page address is 10 characters today (accounts.models.PUBLIC_ID_LENGTH); the column holds 16.
PAGE_MAX_LENGTH = 16


class PersonSerializer(serializers.Serializer):
    """A player the caller follows or blocked, as ``person_json`` writes it."""

    player = serializers.CharField(
        help_text="Their page address (public id): /people/{player}/ is their page."
    )
    name = serializers.CharField(help_text="The name the site shows them by.")
    since = serializers.DateTimeField()


class PlayerByPageSerializer(StrictSerializer):
    player = StrictCharField(
        max_length=PAGE_MAX_LENGTH, help_text="The player's page address (public id)."
    )


class FollowedGameSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    kind = serializers.CharField(help_text="Which game: piratz, rattenscharf...")
    status = serializers.CharField(help_text="The game's status: `active`, then how it ended.")
    since = serializers.DateTimeField()
    told_ended_at = serializers.DateTimeField(
        allow_null=True, help_text="When the email saying it ended was queued; null before."
    )


class GameByIdSerializer(StrictSerializer):
    game = StrictUUIDField(help_text="The id of a public game being played, not yours.")


def person_json(row: Follow | Block) -> dict:
    person = row.player if isinstance(row, Follow) else row.blocked
    return {
        "player": person.public_id,
        "name": person.public_name,
        "since": datetime_json(row.created_at),
    }


def followed_game_json(row: FollowedGame) -> dict:
    return {
        "game": str(row.game_id),
        "kind": row.game.game,
        "status": row.game.status,
        "since": datetime_json(row.created_at),
        "told_ended_at": datetime_json(row.told_at),
    }


_NO_PLAYER = OpenApiResponse(
    ErrorSerializer, description="`not_found`: no living player has this page address."
)
_PLAYER_REFUSALS = {
    400: OpenApiResponse(
        ErrorSerializer,
        description="`invalid`: no `player`, not a string, too long, an unknown field, "
        "or your own page address.",
    ),
    404: _NO_PLAYER,
    409: OpenApiResponse(
        ErrorSerializer, description="`conflict`: you follow or block as many as you may."
    ),
}


def _answer(row, created: bool, to_json) -> Response:
    """201 with the row when it is new, 200 with the same row when it was there already."""
    return Response(to_json(row), status.HTTP_201_CREATED if created else status.HTTP_200_OK)


@extend_schema_view(
    get=extend_schema(
        summary="The players you follow, newest first",
        responses={200: PersonSerializer(many=True)},
    ),
    post=extend_schema(
        summary="Follow a player",
        description="You are emailed when they start a public game (your `game_started` "
        "settings decide how). Following again answers 200 with the same entry.",
        request=PlayerByPageSerializer,
        responses={201: PersonSerializer, 200: PersonSerializer, **_PLAYER_REFUSALS},
    ),
)
class FollowingView(ListAPIView):
    serializer_class = PersonSerializer

    def list(self, request):
        user = cast(User, request.user)
        page = self.paginate_queryset(queries.following_of(user))
        assert page is not None  # DEFAULT_PAGINATION_CLASS is set
        return self.get_paginated_response([person_json(row) for row in page])

    def post(self, request):
        data = validated_body(PlayerByPageSerializer, request)
        try:
            row, created = actions.do_follow(cast(User, request.user), data["player"])
        except ServiceError as error:
            raise refused(error) from None
        return _answer(row, created, person_json)


class FollowingOneView(APIView):
    @extend_schema(
        summary="Stop following a player",
        description="Not following them changes nothing (204 all the same).",
        responses={204: None, 404: _NO_PLAYER},
    )
    def delete(self, request, public_id):
        try:
            actions.do_unfollow(cast(User, request.user), public_id)
        except ServiceError as error:
            raise refused(error) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(
    get=extend_schema(
        summary="The players you blocked, newest first",
        description="Never who blocked you: nobody is told of a block.",
        responses={200: PersonSerializer(many=True)},
    ),
    post=extend_schema(
        summary="Block a player",
        description="The two of you never meet: they cannot invite or challenge you (their "
        "invitation is refused as any busy address is, `429 throttled`), you are not paired "
        "in the lobby, quick match or a tournament where avoidable, and you no longer see "
        "their table talk. You stop following them. They are not told. Blocking again "
        "answers 200 with the same entry.",
        request=PlayerByPageSerializer,
        responses={201: PersonSerializer, 200: PersonSerializer, **_PLAYER_REFUSALS},
    ),
)
class BlocksView(ListAPIView):
    serializer_class = PersonSerializer

    def list(self, request):
        user = cast(User, request.user)
        page = self.paginate_queryset(queries.blocks_of(user))
        assert page is not None  # DEFAULT_PAGINATION_CLASS is set
        return self.get_paginated_response([person_json(row) for row in page])

    def post(self, request):
        data = validated_body(PlayerByPageSerializer, request)
        try:
            row, created = actions.do_block(cast(User, request.user), data["player"])
        except ServiceError as error:
            raise refused(error) from None
        return _answer(row, created, person_json)


class BlockOneView(APIView):
    @extend_schema(
        summary="Unblock a player",
        description="Only your own block is lifted; none to lift changes nothing (204).",
        responses={204: None, 404: _NO_PLAYER},
    )
    def delete(self, request, public_id):
        try:
            actions.do_unblock(cast(User, request.user), public_id)
        except ServiceError as error:
            raise refused(error) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(
    get=extend_schema(
        summary="The games you follow, newest first",
        responses={200: FollowedGameSerializer(many=True)},
    ),
    post=extend_schema(
        summary="Follow a game",
        description="A public game being played in which you hold no seat: you are emailed "
        "when it ends (your `game_over` settings decide how). Following again answers 200.",
        request=GameByIdSerializer,
        responses={
            201: FollowedGameSerializer,
            200: FollowedGameSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description="`invalid`: no `game`, not a game id, an unknown field.",
            ),
            404: OpenApiResponse(
                ErrorSerializer,
                description="`not_found`: no such game, or it is not public or not begun.",
            ),
            409: OpenApiResponse(
                ErrorSerializer,
                description="`conflict`: you hold a seat in it, or follow as many games as "
                "you may; `game_not_active`: it has ended.",
            ),
        },
    ),
)
class FollowedGamesView(ListAPIView):
    serializer_class = FollowedGameSerializer

    def list(self, request):
        user = cast(User, request.user)
        page = self.paginate_queryset(queries.followed_games_of(user))
        assert page is not None  # DEFAULT_PAGINATION_CLASS is set
        return self.get_paginated_response([followed_game_json(row) for row in page])

    def post(self, request):
        data = validated_body(GameByIdSerializer, request)
        try:
            row, created = actions.do_follow_game(cast(User, request.user), data["game"])
        except ServiceError as error:
            raise refused(error) from None
        return _answer(row, created, followed_game_json)


class FollowedGameOneView(APIView):
    @extend_schema(
        summary="Stop following a game",
        description="Not following it changes nothing (204 all the same).",
        responses={204: None},
    )
    def delete(self, request, game_id):
        actions.do_unfollow_game(cast(User, request.user), game_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
