"""Request and response shapes of the games API (CONTRACT.md section 2)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games import actions, queries
from games.models import Game
from games.rules import available_games


class StrictSerializer(serializers.Serializer):
    """A serializer that rejects fields it does not know: a typo must not pass silently."""

    def validate(self, attrs):
        unknown = set(self.initial_data) - set(self.fields)
        if unknown:
            raise serializers.ValidationError(f"Unknown fields: {', '.join(sorted(unknown))}.")
        return attrs


class StrictIntegerField(serializers.IntegerField):
    """An integer that must arrive as a JSON number: no "12" strings, no true/false."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class GameCreateSerializer(StrictSerializer):
    game = serializers.ChoiceField(choices=available_games(), default="piratz")
    players = serializers.ListField(
        child=serializers.EmailField(),
        min_length=2,
        max_length=4,
        help_text="Seat order: 2-4 distinct addresses, yours among them.",
    )
    turn_hours = StrictIntegerField(
        min_value=actions.MIN_TURN_HOURS, max_value=actions.MAX_TURN_HOURS, default=72
    )
    blind = StrictBooleanField(default=False)


class MoveRequestSerializer(serializers.Serializer):
    """A move: the version it was chosen from, and the action's own fields beside it.

    Only ``version`` and ``action`` are checked here; the action's other fields
    (``treasure``, ``bury``, ``keep`` for Piratz) are checked by the rules engine,
    which knows each game's actions.
    """

    version = StrictIntegerField(min_value=0)
    action = serializers.CharField(max_length=30)
    treasure = serializers.CharField(required=False, help_text="pass: the treasure type named.")
    bury = StrictIntegerField(
        required=False, allow_null=True, help_text="pass, resolve_alarm: the card buried, or null."
    )
    keep = StrictIntegerField(required=False, help_text="resolve_alarm: the rat kept.")

    def to_action(self) -> dict:
        """The action dict for the engine: the request's own fields, minus ``version``.

        Taken from the raw body, not the validated data, so that the engine sees the
        types the client sent and can reject, say, ``"bury": "12"`` as malformed.
        """
        return {key: value for key, value in self.initial_data.items() if key != "version"}


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField(source="user.public_name")
    accepted = serializers.BooleanField()


class GameSerializer(serializers.ModelSerializer):
    """A game as one viewer may see it: ``state`` is the engine's view for their seat.

    The serializer's context must hold ``viewer`` (the user asking).
    """

    seats = SeatSerializer(many=True, read_only=True)
    you = serializers.SerializerMethodField()
    state = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "id",
            "game",
            "status",
            "version",
            "seats",
            "you",
            "turn_hours",
            "blind",
            "deadline",
            "state",
            "created_at",
            "updated_at",
            "end_reason",
        ]

    def get_you(self, game: Game) -> int | None:
        return queries.seat_of(game, self.context["viewer"])

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_state(self, game: Game) -> dict | None:
        # Hidden information is the engine's business: view() strips what this seat may not
        # see; table_view() also shows an aborted game as ended.
        return game.table_view(self.get_you(game))


class MoveLogSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seat = serializers.IntegerField()
    action = serializers.JSONField()
    revealed = serializers.JSONField(allow_null=True)
    automatic = serializers.BooleanField()
    at = serializers.DateTimeField()


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    detail = serializers.CharField()
