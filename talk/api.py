"""``/api/games/{id}/messages/``: the game's table talk, read by its players and staff (and by
anyone watching a public game whose host opened its talk to spectators), written by its
players (docs/api.md "Playing together", "Watching games")."""

from typing import cast

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from accounts.models import User
from core.api.body import validated_body
from core.api.errors import refused
from core.api.fields import ErrorSerializer, StrictCharField, StrictSerializer
from core.errors import ServiceError
from games import queries, watching
from games.api.representation import datetime_json
from games.api.views import SIGN_IN_FOR_A_PRIVATE_GAME
from talk import actions
from talk.models import Message


class MessageSerializer(serializers.Serializer):
    """One message as ``message_json`` writes it (this documents the shape)."""

    id = serializers.IntegerField()
    seat = serializers.IntegerField(help_text="The writer's seat.")
    name = serializers.CharField(help_text="The writer's name, as the other players see it.")
    text = serializers.CharField(
        allow_null=True,
        help_text="Plain text, 1-1,000 characters; null for players when a moderator hid it.",
    )
    at = serializers.DateTimeField()
    hidden = serializers.BooleanField(help_text="A moderator hid the message.")


class MessageCreateSerializer(StrictSerializer):
    text = StrictCharField(
        # DRF trims before it counts (as clean_text, which the service checks it with).
        max_length=Message.MAX_LENGTH,
        help_text="Plain text: 1-1,000 characters after trimming; line breaks and tabs are "
        "kept, other control characters refused.",
    )


def message_json(message: Message, *, moderator: bool) -> dict:
    """``message`` for the API: a hidden one's text only to moderators."""
    return {
        "id": message.pk,
        "seat": message.seat,
        "name": message.author.public_name,
        "text": message.text if moderator or not message.is_hidden else None,
        "at": datetime_json(message.created_at),
        "hidden": message.is_hidden,
    }


_REFUSALS = {
    403: OpenApiResponse(
        ErrorSerializer,
        description="`not_a_player`: staff without a seat (they may read, not write); "
        "`suspended`: a moderator suspended you.",
    ),
}


@extend_schema_view(
    get=extend_schema(
        summary="The game's table talk, oldest first",
        description="Players and staff; anyone, signed in or not, for a public game whose "
        "host opened its talk to spectators (`talk_public`). A message a moderator hid shows "
        "`text: null` and `hidden: true` to players and spectators (staff still read it).",
        responses={
            200: MessageSerializer(many=True),
            401: SIGN_IN_FOR_A_PRIVATE_GAME,
            403: OpenApiResponse(
                ErrorSerializer,
                description="`not_a_player`: you watch a public game whose table talk is "
                "for its players only.",
            ),
        },
    ),
    post=extend_schema(
        summary="Write at the game's table",
        description="Players only, also once the game has ended. At most "
        "`TALK_MESSAGES_PER_HOUR` (30) messages per player and game in any hour: beyond, "
        "`throttled`.",
        request=MessageCreateSerializer,
        responses={
            201: MessageSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description="`invalid`: no text, only spaces, over 1,000 characters after "
                "trimming, control characters, an unknown field.",
            ),
            **_REFUSALS,
            429: OpenApiResponse(
                ErrorSerializer,
                description="`throttled`: too many requests, or too many messages at this "
                "table within the hour (`TALK_MESSAGES_PER_HOUR`).",
            ),
        },
    ),
)
class MessagesView(ListAPIView):
    serializer_class = MessageSerializer

    def get_permissions(self):
        # Reading may be anyone's (a public game's opened talk); writing is a player's.
        if self.request.method == "GET":
            return [AllowAny()]
        return super().get_permissions()

    def list(self, request, game_id):
        signed_in = request.user.is_authenticated
        try:
            viewing = watching.get_viewing(request.user, game_id)
            if viewing.watcher and not viewing.game.talk_public:
                raise ServiceError(
                    "not_a_player",
                    _("This game's table talk is for its players: its host has not opened it."),
                )
        except ServiceError as error:
            if error.code == "not_found" and not signed_in:
                # A game nobody may watch answers anonymous callers as before: sign in.
                self.permission_denied(request)
            raise refused(error) from None
        user = cast(User, request.user) if signed_in else None
        # Not the messages of people the reader blocked (docs/people.md "Blocking").
        page = self.paginate_queryset(actions.messages_of(viewing.game, user))
        assert page is not None  # DEFAULT_PAGINATION_CLASS is set: the list is paged
        staff = user is not None and user.is_staff
        return self.get_paginated_response(
            [message_json(message, moderator=staff) for message in page]
        )

    def post(self, request, game_id):
        user = cast(User, request.user)
        try:
            game = queries.get_visible_game(user, game_id)
        except ServiceError as error:
            raise refused(error) from None
        data = validated_body(MessageCreateSerializer, request)
        try:
            message = actions.post_message(game, user, data["text"])
        except ServiceError as error:
            raise refused(error) from None
        return Response(message_json(message, moderator=user.is_staff), status.HTTP_201_CREATED)
