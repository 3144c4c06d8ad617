"""``/api/quickmatch/``: the caller's seeks, posting one, withdrawing one (docs/api.md
"Quick match", docs/quickmatch.md)."""

from typing import cast

from django.conf import settings
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from core.api.body import validated_body
from core.api.errors import refused
from core.api.fields import (
    ErrorSerializer,
    StrictBooleanField,
    StrictIntegerField,
    StrictSerializer,
)
from core.errors import ServiceError
from games.actions import MAX_TURN_HOURS, MIN_TURN_HOURS
from games.api.representation import datetime_json
from games.catalogue import kinds, rules_for
from quickmatch import actions, pairing
from quickmatch.models import Seek, SeekStatus


class SeekSerializer(serializers.Serializer):
    """A seek as ``seek_json`` writes it (this documents the shape)."""

    id = serializers.UUIDField()
    game = serializers.CharField(help_text="The game, by its catalogue name.")
    players = serializers.IntegerField(help_text="Players at the table, you too.")
    turn_hours_min = serializers.IntegerField()
    turn_hours_max = serializers.IntegerField()
    rated = serializers.BooleanField()
    rating = serializers.IntegerField(help_text="Your displayed rating when you posted it.")
    rating_range = serializers.IntegerField(help_text="Displayed points either side, asked.")
    window = serializers.IntegerField(
        allow_null=True,
        help_text="How far it reaches now: `rating_range`, widened by every minute waited "
        "(null once it waits no more).",
    )
    status = serializers.ChoiceField(choices=SeekStatus.values)
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    game_id = serializers.UUIDField(allow_null=True, help_text="The game, once `matched`.")


class SeekCreateSerializer(StrictSerializer):
    # The catalogue's games and their player counts, read per request (GAME_PACKAGES).
    game = serializers.ChoiceField(choices=[])
    players = StrictIntegerField(min_value=2, help_text="One of the game's player counts.")
    turn_hours_min = StrictIntegerField(
        required=False, default=24, min_value=MIN_TURN_HOURS, max_value=MAX_TURN_HOURS
    )
    turn_hours_max = StrictIntegerField(
        required=False,
        default=72,
        min_value=MIN_TURN_HOURS,
        max_value=MAX_TURN_HOURS,
        help_text="At least `turn_hours_min`.",
    )
    rated = StrictBooleanField(required=False, default=True)
    rating_range = StrictIntegerField(
        required=False,
        default=actions.DEFAULT_RATING_RANGE,
        min_value=actions.MIN_RATING_RANGE,
        max_value=actions.MAX_RATING_RANGE,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        game_field = cast(serializers.ChoiceField, self.fields["game"])
        game_field.choices = kinds()
        most = max(max(rules_for(kind).PLAYER_COUNTS) for kind in kinds())
        self.fields["players"] = StrictIntegerField(
            min_value=2, max_value=most, help_text="One of the game's player counts."
        )


def seek_json(seek: Seek) -> dict:
    window = None
    if seek.status == SeekStatus.WAITING:
        window = pairing.window(
            actions.candidate(seek), timezone.now(), settings.SEEK_WIDENING_PER_MINUTE
        )
    return {
        "id": str(seek.id),
        "game": seek.kind,
        "players": seek.players,
        "turn_hours_min": seek.turn_hours_min,
        "turn_hours_max": seek.turn_hours_max,
        "rated": seek.rated,
        "rating": seek.rating,
        "rating_range": seek.rating_range,
        "window": window,
        "status": seek.status,
        "created_at": datetime_json(seek.created_at),
        "expires_at": datetime_json(seek.expires_at),
        "ended_at": datetime_json(seek.ended_at),
        "game_id": str(seek.game_id) if seek.game_id else None,
    }


@extend_schema_view(
    get=extend_schema(
        summary="Your seeks, newest first",
        description="Waiting, matched (with the game's id), expired or withdrawn.",
        responses={200: SeekSerializer(many=True)},
    ),
    post=extend_schema(
        summary="Post a seek: find me a game",
        description="A seek for the game waits for compatible seeks (the same game, number "
        "of players and rated choice, overlapping hours per turn, each rating within the "
        "other's window, which widens as a seek waits); the worker then starts the game "
        "with every seat taken, public, and everyone is told as for any game. It replaces "
        "your waiting seek for the same game, and expires after `SEEK_HOURS` (24). At most "
        "`SEEKS_PER_HOUR` (20) an hour.",
        request=SeekCreateSerializer,
        responses={
            201: SeekSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description="`invalid`: an unknown game, a player count the game does not "
                "seat, `turn_hours_min` above `turn_hours_max`.",
            ),
            403: OpenApiResponse(ErrorSerializer, description="`suspended`."),
            429: OpenApiResponse(ErrorSerializer, description="`throttled`."),
        },
    ),
)
class SeeksView(ListAPIView):
    serializer_class = SeekSerializer

    def list(self, request):
        user = cast(User, request.user)
        page = self.paginate_queryset(Seek.objects.filter(user=user).order_by("-created_at"))
        assert page is not None  # DEFAULT_PAGINATION_CLASS is set
        return self.get_paginated_response([seek_json(seek) for seek in page])

    def post(self, request):
        user = cast(User, request.user)
        data = validated_body(SeekCreateSerializer, request)
        try:
            seek = actions.do_post_seek(user, **data)
        except ServiceError as error:
            raise refused(error) from None
        # The worker may have paired it already (it runs after commit).
        seek.refresh_from_db()
        return Response(seek_json(seek), status.HTTP_201_CREATED)


class SeekView(APIView):
    @extend_schema(
        summary="Withdraw a waiting seek",
        request=None,
        responses={
            204: None,
            404: OpenApiResponse(ErrorSerializer, description="`not_found`: not one of yours."),
            409: OpenApiResponse(
                ErrorSerializer,
                description="`conflict`: it waits no more (matched, expired, withdrawn).",
            ),
        },
    )
    def delete(self, request, seek_id):
        user = cast(User, request.user)
        try:
            actions.do_withdraw_seek(user, seek_id)
        except ServiceError as error:
            raise refused(error) from None
        return Response(status=status.HTTP_204_NO_CONTENT)
