"""``POST /api/reports/``: a player reports a game they play in, or another player in it."""

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.decorators import api_view, throttle_classes
from rest_framework.response import Response

from accounts.throttling import UserRateThrottle
from core.api.body import validated_body
from core.api.errors import refused
from core.api.fields import (
    ErrorSerializer,
    StrictCharField,
    StrictIntegerField,
    StrictSerializer,
    StrictUUIDField,
)
from core.errors import ServiceError
from games.catalogue import all_specs
from moderation import actions
from moderation.models import Report, ReportCategory

THROTTLE_SCOPE = "reports"
# The highest seat any game has: a larger one can never name a player.
MAX_SEAT = max(max(spec.rules.PLAYER_COUNTS) for spec in all_specs()) - 1


class ReportThrottle(UserRateThrottle):
    """``DEFAULT_THROTTLE_RATES["reports"]`` (``API_THROTTLE_REPORTS``) per user: reports
    land in a moderator's queue, so one person cannot flood it. A scope of its own, so
    other requests do not use it up."""

    scope = THROTTLE_SCOPE  # its rate is read per request (CountingRateThrottle.get_rate)


@extend_schema_field({"type": "string", "pattern": r"\S"})
class _TextField(StrictCharField):
    """Free text, taken without its surrounding whitespace: spaces alone are blank."""


class ReportCreateSerializer(StrictSerializer):
    """A report: the game (one you hold a seat in), optionally the seat of the player you
    report, a category and what happened."""

    game = StrictUUIDField(help_text="The game's id; you must hold a seat in it.")
    seat = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=MAX_SEAT,
        help_text="The seat of the player you report (not your own); omit to report the game.",
    )
    category = serializers.ChoiceField(choices=ReportCategory.choices)
    text = _TextField(
        max_length=Report.MAX_TEXT_LENGTH,
        help_text="What happened, in your words (at most 2000 characters).",
    )


class ReportSerializer(serializers.ModelSerializer):
    """A filed report, as its reporter sees it (never how a moderator handled it)."""

    game = serializers.UUIDField(source="game_id")
    seat = serializers.SerializerMethodField()

    class Meta:
        model = Report
        fields = ["id", "game", "seat", "category", "text", "status", "created_at"]

    def get_seat(self, report) -> int | None:
        return self.context.get("seat")


@extend_schema(
    summary="Report a game you play in, or another player in it, to the moderators",
    description=(
        "Rate limited per user (`API_THROTTLE_REPORTS`, default 10 an hour). A moderator "
        "resolves the report and you get an email saying it was handled (not how)."
    ),
    request=ReportCreateSerializer,
    responses={
        201: ReportSerializer,
        400: OpenApiResponse(
            ErrorSerializer,
            description="`invalid`: a missing or unknown field, an unknown category, a blank "
            "or too long text, a seat the game does not have, or your own seat.",
        ),
        403: OpenApiResponse(
            ErrorSerializer,
            description="`not_a_player`: staff without a seat in the game; `suspended`.",
        ),
        404: OpenApiResponse(
            ErrorSerializer, description="`not_found`: no such game, or you hold no seat in it."
        ),
    },
)
@api_view(["POST"])
@throttle_classes([UserRateThrottle, ReportThrottle])
def file_report(request):
    data = validated_body(ReportCreateSerializer, request)
    try:
        report = actions.do_file_report(
            request.user, data["game"], data["category"], data["text"], seat=data.get("seat")
        )
    except ServiceError as error:
        raise refused(error) from None
    body = ReportSerializer(report, context={"seat": data.get("seat")}).data
    return Response(body, status=status.HTTP_201_CREATED)
