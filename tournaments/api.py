"""``/api/tournaments/``: the tournaments a caller may see, creating one, one tournament
with its standings and rounds, signing up and withdrawing (docs/api.md "Tournaments",
docs/tournaments.md)."""

from typing import cast

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
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
from core.api.query import QueryParamsSerializer
from core.errors import ServiceError
from games.api.representation import datetime_json
from games.api.serializers import ClockRequestSerializer
from tournaments import actions, queries
from tournaments.models import (
    Result,
    SignUp,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)
from tournaments.standings import standings


class TournamentStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField()
    rating = serializers.IntegerField(help_text="The rating at the start, as players see it.")
    score = serializers.FloatField(help_text="A win or a bye 1, a draw ½.")
    buchholz = serializers.FloatField(help_text="The sum of the opponents' scores (Swiss).")
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    withdrawn = serializers.BooleanField()
    out_in = serializers.IntegerField(
        allow_null=True, help_text="Elimination: the round they went out in; null while in."
    )


class TournamentPairingSerializer(serializers.Serializer):
    board = serializers.IntegerField(help_text="Elimination: the place in the bracket.")
    first = serializers.CharField(help_text="Seat 0 (moves first).")
    second = serializers.CharField(allow_null=True, help_text="null: a bye (or a walkover).")
    game_id = serializers.UUIDField(allow_null=True)
    result = serializers.ChoiceField(
        choices=[r for r in Result.values if r] + ["pending"],
        help_text="`pending` while the game runs; `first`, `second`, `draw`, `none` (the "
        "game ended without a result), `bye`.",
    )
    decided_by = serializers.CharField(help_text="`game`, `deadline`, `bye`; empty: pending.")
    first_points = serializers.FloatField(allow_null=True)
    second_points = serializers.FloatField(allow_null=True)
    advances = serializers.CharField(
        allow_null=True, help_text="Elimination: who goes through (null: pending or Swiss)."
    )


class TournamentRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    deadline = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    pairings = TournamentPairingSerializer(many=True)


class TournamentSerializer(serializers.Serializer):
    """A tournament as ``tournament_json`` writes it (this documents the shape)."""

    id = serializers.UUIDField()
    name = serializers.CharField()
    organiser = serializers.CharField()
    game = serializers.CharField()
    format = serializers.ChoiceField(choices=TournamentFormat.values)
    rounds = serializers.IntegerField(
        help_text="Swiss: the rounds to play (fewer when everyone has met everyone); "
        "elimination: the bracket's, once it has started."
    )
    current_round = serializers.IntegerField(help_text="0 before the start.")
    turn_hours = serializers.IntegerField()
    clock = serializers.DictField(allow_null=True, help_text="The games' clock; null: per turn.")
    rated = serializers.BooleanField()
    blind = serializers.BooleanField()
    signup = serializers.ChoiceField(choices=SignUp.values)
    max_entrants = serializers.IntegerField()
    round_days = serializers.IntegerField()
    status = serializers.ChoiceField(choices=TournamentStatus.values)
    starts_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    ended_at = serializers.DateTimeField(allow_null=True)
    entrants = serializers.IntegerField(help_text="How many are signed up (not withdrawn).")
    you = serializers.ChoiceField(
        choices=["none", "invited", "signed_up", "withdrawn", "declined"],
        help_text="Where you stand in it.",
    )


class TournamentDetailSerializer(TournamentSerializer):
    players = serializers.ListField(
        child=serializers.CharField(), help_text="Who is signed up, by name."
    )
    standings = TournamentStandingSerializer(many=True, help_text="Empty before the start.")
    rounds_played = TournamentRoundSerializer(many=True)


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "string", "minLength": 1, "maxLength": 254},
        "maxItems": actions.MAX_ENTRANTS,
        "uniqueItems": True,
    }
)
class _InviteesField(BoundedListField):
    pass


class TournamentCreateSerializer(StrictSerializer):
    name = StrictCharField(max_length=actions.NAME_MAX_LENGTH)
    starts_at = serializers.DateTimeField(
        help_text="When sign-up closes and round 1 is paired: in the future, at most 90 days "
        "ahead, with its time zone."
    )
    game = serializers.ChoiceField(choices=[], required=False)
    format = serializers.ChoiceField(
        choices=TournamentFormat.values, required=False, default="swiss"
    )
    rounds = StrictIntegerField(
        required=False, default=5, min_value=1, max_value=actions.MAX_SWISS_ROUNDS
    )
    turn_hours = StrictIntegerField(required=False, default=72, min_value=1, max_value=720)
    clock = ClockRequestSerializer(required=False, help_text="As a new game's.")
    rated = StrictBooleanField(required=False, default=True)
    blind = StrictBooleanField(required=False, default=False)
    signup = serializers.ChoiceField(choices=SignUp.values, required=False, default="open")
    round_days = StrictIntegerField(
        required=False,
        default=14,
        min_value=actions.MIN_ROUND_DAYS,
        max_value=actions.MAX_ROUND_DAYS,
    )
    max_entrants = StrictIntegerField(
        required=False,
        default=64,
        min_value=actions.MIN_ENTRANTS,
        max_value=actions.MAX_ENTRANTS,
    )
    invitees = _InviteesField(
        child=StrictCharField(max_length=254),
        required=False,
        max_length=actions.MAX_ENTRANTS,
        help_text="signup `invitation` only (and then at least one): addresses or names as "
        "the site shows people, each once; yours to play.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        game_field = cast(serializers.ChoiceField, self.fields["game"])
        game_field.choices = actions.two_player_kinds()


class TournamentFilters(QueryParamsSerializer):
    status = serializers.ChoiceField(choices=TournamentStatus.values, required=False)


def _you(tournament: Tournament, user: User) -> str:
    entrant = queries.entrant_of(tournament, user)
    if entrant is None:
        return "none"
    if entrant.withdrawn_at is not None:
        return "withdrawn"
    if entrant.signed_up_at is not None:
        return "signed_up"
    if entrant.declined_at is not None:
        return "declined"
    return "invited"


def tournament_json(tournament: Tournament, user: User, *, detail: bool) -> dict:
    entrants = queries.signed_up(tournament)
    data = {
        "id": str(tournament.id),
        "name": tournament.name,
        "organiser": str(tournament.organiser.public_name),
        "game": tournament.game,
        "format": tournament.format,
        "rounds": tournament.rounds,
        "current_round": tournament.current_round,
        "turn_hours": tournament.turn_hours,
        "clock": tournament.clock,
        "rated": tournament.rated,
        "blind": tournament.blind,
        "signup": tournament.signup,
        "max_entrants": tournament.max_entrants,
        "round_days": tournament.round_days,
        "status": tournament.status,
        "starts_at": datetime_json(tournament.starts_at),
        "started_at": datetime_json(tournament.started_at),
        "ended_at": datetime_json(tournament.ended_at),
        "entrants": len(entrants),
        "you": _you(tournament, user),
    }
    if not detail:
        return data
    keys = [
        *("rank", "name", "seed", "rating", "score", "buchholz", "wins", "draws"),
        *("losses", "byes", "withdrawn", "out_in"),
    ]
    data["players"] = [str(e.user.public_name) for e in entrants]
    data["standings"] = [{key: row[key] for key in keys} for row in standings(tournament)]
    data["rounds_played"] = [
        {
            "number": entry["number"],
            "deadline": datetime_json(entry["deadline"]),
            "ended_at": datetime_json(entry["ended_at"]),
            "pairings": [
                {
                    "board": p["board"],
                    "first": p["first_name"],
                    "second": p["second_name"],
                    "game_id": str(p["game_id"]) if p["game_id"] else None,
                    "result": p["result"] or "pending",
                    "decided_by": p["decided_by"],
                    "first_points": p["first_points"],
                    "second_points": p["second_points"],
                    "advances": (
                        None
                        if p["advances"] is None
                        else p["first_name"]
                        if p["advances"] == p["first"].pk
                        else p["second_name"]
                    ),
                }
                for p in entry["pairings"]
            ],
        }
        for entry in queries.rounds_of(tournament)
    ]
    return data


_NOT_FOUND = OpenApiResponse(
    ErrorSerializer,
    description="`not_found`: no such tournament, or one by invitation you are not invited to.",
)


@extend_schema_view(
    get=extend_schema(
        summary="Tournaments you may see",
        description="Every open tournament and those by invitation you organise or are "
        "invited to; those signing up soonest start first, the others newest first.",
        parameters=[
            OpenApiParameter(
                "status",
                OpenApiTypes.STR,
                enum=TournamentStatus.values,
                description="Only the tournaments with this `status`.",
            )
        ],
        responses={
            200: TournamentSerializer(many=True),
            400: OpenApiResponse(
                ErrorSerializer,
                description="`invalid`: an unknown query parameter, one given twice, or a "
                "value the schema does not allow.",
            ),
        },
    ),
    post=extend_schema(
        summary="Create a tournament",
        description="Swiss or single elimination of a two-player game. Sign-up stays open "
        "until `starts_at`; then round 1 is paired. By invitation, each invitee is emailed "
        "(the invitations count against the invitation limits). At most "
        "`TOURNAMENTS_PER_USER_PER_DAY` (3) a day.",
        request=TournamentCreateSerializer,
        responses={
            201: TournamentDetailSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description="`invalid`: also a start not in the future (or more than 90 days "
                "ahead), a game without blind mode, invitees for an open tournament or none "
                "for one by invitation, a name nobody has.",
            ),
            403: OpenApiResponse(ErrorSerializer, description="`suspended`."),
            429: OpenApiResponse(
                ErrorSerializer, description="`throttled`: 3 a day, or the invitation limits."
            ),
        },
    ),
)
class TournamentsView(ListAPIView):
    serializer_class = TournamentSerializer

    def list(self, request):
        user = cast(User, request.user)
        filters = TournamentFilters.read(request)
        found = (
            queries.listed(user, filters["status"])
            if "status" in filters
            else queries.visible_to(user).order_by("-starts_at", "-created_at")
        )
        page = self.paginate_queryset(found)
        assert page is not None  # DEFAULT_PAGINATION_CLASS is set
        return self.get_paginated_response([tournament_json(t, user, detail=False) for t in page])

    def post(self, request):
        user = cast(User, request.user)
        data = validated_body(TournamentCreateSerializer, request)
        try:
            tournament = actions.do_create_tournament(user, **data)
        except ServiceError as error:
            raise refused(error) from None
        return Response(tournament_json(tournament, user, detail=True), status.HTTP_201_CREATED)


class TournamentView(APIView):
    @extend_schema(
        summary="One tournament: players, standings and rounds",
        responses={200: TournamentDetailSerializer, 404: _NOT_FOUND},
    )
    def get(self, request, tournament_id):
        user = cast(User, request.user)
        try:
            tournament = queries.visible_tournament(user, tournament_id)
        except ServiceError as error:
            raise refused(error) from None
        return Response(tournament_json(tournament, user, detail=True))


class SignUpView(APIView):
    @extend_schema(
        summary="Sign up for a tournament",
        description="Until the start; by invitation only for an invitee (this accepts the "
        "invitation). Signing up again is harmless.",
        request=None,
        responses={
            200: TournamentDetailSerializer,
            403: OpenApiResponse(ErrorSerializer, description="`suspended`."),
            404: _NOT_FOUND,
            409: OpenApiResponse(
                ErrorSerializer, description="`conflict`: sign-up has closed, or it is full."
            ),
        },
    )
    def post(self, request, tournament_id):
        user = cast(User, request.user)
        try:
            tournament = queries.visible_tournament(user, tournament_id)
            actions.do_sign_up(tournament.id, user)
        except ServiceError as error:
            raise refused(error) from None
        return Response(tournament_json(tournament, user, detail=True))


class WithdrawView(APIView):
    @extend_schema(
        summary="Withdraw from a tournament",
        description="Before the start: off the list (you may sign up again). Once it runs: "
        "out of every later round, and your running game of it is resigned. Again: harmless.",
        request=None,
        responses={
            200: TournamentDetailSerializer,
            404: _NOT_FOUND,
            409: OpenApiResponse(
                ErrorSerializer,
                description="`conflict`: you are not signed up, or the tournament is over.",
            ),
        },
    )
    def post(self, request, tournament_id):
        user = cast(User, request.user)
        try:
            tournament = queries.visible_tournament(user, tournament_id)
            actions.do_withdraw(tournament.id, user)
        except ServiceError as error:
            raise refused(error) from None
        tournament.refresh_from_db()
        return Response(tournament_json(tournament, user, detail=True))
