"""Request and response shapes of the games API (docs/api.md "Games, moves and versions")."""

from typing import cast

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from accounts.models import User
from core.api.fields import (
    ArrivesAsJsonString,
    BoundedListField,
    StrictBooleanField,
    StrictIntegerField,
    StrictSerializer,
    more_unknown_fields,
    unknown_fields,
)
from games import actions, clocks, fairness, seat_names, watching
from games.api.representation import host_seat, seat_bot_json, seat_vacation_until
from games.api.tables import game_state_serializer, revealed_serializer
from games.catalogue import all_specs, kinds, rules_for
from games.models import ClockKind, Game

# Longest address the user table stores (RFC 5321's 254): SQLite would not enforce it.
EMAIL_MAX_LENGTH = User._meta.get_field("email").max_length


class PlayerEntryField(serializers.CharField):
    """A seat of a new game: the player's address, ``"bot:<level>"`` for a bot, or
    ``"player:<public id>"`` for the person with that player page.

    The level is checked against the game's rules (``BOT_LEVELS``), the page against the
    people, by the service.
    """

    def to_internal_value(self, data):
        value = super().to_internal_value(data).strip()
        if value.lower().startswith(("bot:", "player:")):
            return value.lower()
        return serializers.EmailField(max_length=EMAIL_MAX_LENGTH).run_validation(value)


class ClientSeedField(ArrivesAsJsonString, serializers.RegexField):
    """A client seed (games.fairness): a JSON string of 1-64 characters A-Z a-z 0-9 - _."""

    def __init__(self, **kwargs):
        super().__init__(r"^[A-Za-z0-9_-]{1,64}$", max_length=64, required=False, **kwargs)


class ClockRequestSerializer(serializers.Serializer):
    """A new game's clock (``games.clocks.clean_clock``, which checks the combination:
    the fields of its kind only, a cap not below the bank, a daily hour)."""

    rejects_unknown_fields = True  # the schema says additionalProperties: false

    kind = serializers.ChoiceField(choices=ClockKind.choices)
    bank_hours = StrictIntegerField(
        required=False,
        min_value=clocks.MIN_BANK_HOURS,
        max_value=clocks.MAX_BANK_HOURS,
        help_text="Time bank: each player's bank at the start (default 240).",
    )
    increment_hours = StrictIntegerField(
        required=False,
        min_value=0,
        max_value=clocks.MAX_INCREMENT_HOURS,
        help_text="Time bank: added after each turn (default 36).",
    )
    cap_hours = StrictIntegerField(
        required=False,
        min_value=clocks.MIN_BANK_HOURS,
        max_value=clocks.MAX_CAP_HOURS,
        help_text="Time bank: the most a bank holds, at least bank_hours (default 480).",
    )
    hour = StrictIntegerField(
        required=False,
        min_value=0,
        max_value=23,
        help_text="Daily deadline: the hour (0-23) in the host's time zone every turn ends at.",
    )

    def to_internal_value(self, data):
        # Nested, so StrictSerializer's check of the whole body does not reach in here.
        if isinstance(data, dict):
            named, count = unknown_fields(data, self.fields)
            if named:
                message = _("Unknown fields: %(fields)s.") % {"fields": ", ".join(named)}
                if count > len(named):
                    message += " " + more_unknown_fields(count - len(named))
                raise serializers.ValidationError(message)
        return super().to_internal_value(data)


class ClockSerializer(serializers.Serializer):
    """A game's clock as every answer shows it (``games.clocks.clock_json``)."""

    kind = serializers.ChoiceField(
        choices=ClockKind.choices,
        help_text="per_turn: turn_hours each turn; bank: a time bank per player; daily: "
        "every turn ends at a fixed hour.",
    )
    bank_hours = serializers.IntegerField(allow_null=True, help_text="Time bank: at the start.")
    increment_hours = serializers.IntegerField(
        allow_null=True, help_text="Time bank: added after each turn."
    )
    cap_hours = serializers.IntegerField(allow_null=True, help_text="Time bank: the most it holds.")
    hour = serializers.IntegerField(allow_null=True, help_text="Daily deadline: its hour (0-23).")
    zone = serializers.CharField(
        allow_null=True, help_text="Daily deadline: the IANA time zone of its hour."
    )


class GameCreateSerializer(StrictSerializer):
    """A new game: which game, the players in seat order, the turn length, blind mode.

    The number of players and the options are the game's rules' (``PLAYER_COUNTS``,
    ``OPTIONS``), checked by the service: Rattenscharf seats exactly 2, without blind mode.
    """

    game = serializers.ChoiceField(choices=[])
    players = BoundedListField(
        child=PlayerEntryField(),
        min_length=2,
        max_length=4,
        help_text="Seat order: as many distinct addresses as the game seats (Piratz 2-4, "
        'Rattenscharf 2), yours among them; "bot:<level>" (e.g. "bot:careful") seats a bot '
        'instead, "player:<public id>" the person with that player page.',
    )
    turn_hours = StrictIntegerField(
        min_value=actions.MIN_TURN_HOURS, max_value=actions.MAX_TURN_HOURS, default=72
    )
    blind = StrictBooleanField(default=False)
    client_seed = ClientSeedField(
        help_text="Your optional contribution to the shuffle key (1-64 characters: A-Z, a-z, "
        "0-9, - and _); see the verification endpoint.",
    )
    stand_in_bots = StrictBooleanField(
        required=False,
        help_text="Let a bot (the game's stand-in level) take the seat of a player who times out "
        "STAND_IN_AFTER_TIMEOUTS turns in a row, or instead of abandoning the game (P25). "
        "Default: on for 3-4 players.",
    )
    rated = StrictBooleanField(
        required=False,
        help_text="Whether the finished game moves its players' ratings (GET "
        "/api/ratings/{game}/). Default: rated when every seat is a person; a game with a bot "
        "is never rated (true is refused).",
    )
    public = StrictBooleanField(
        default=False,
        help_text="Anyone may watch the game once it has begun, signed in or not (its table "
        "talk stays the players' unless the host opens it). Default: false.",
    )

    clock = ClockRequestSerializer(
        required=False,
        help_text='How turns are timed (default: turn_hours per turn). {"kind": "bank", '
        '"bank_hours": 240, "increment_hours": 36, "cap_hours": 480}: a time bank per player '
        "that each turn spends and that gains the increment after it, up to the cap (defaults "
        'as shown); {"kind": "daily", "hour": 20}: every turn ends at that hour in your time '
        "zone, at least 12 hours after it starts. turn_hours is not used then.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The catalogue's games, read per request (not at import): GAME_PACKAGES decides.
        # The per-game documentation shapes (_game_create_serializer) declare their one.
        game_field = cast(serializers.ChoiceField, self.fields["game"])
        if not game_field.choices:
            game_field.choices = kinds()


# --- The schema of a new game: one shape per game (its seats, its options) ------------------


def _player_entry_schema(rules) -> dict:
    """A seat of a new game of ``rules``, as JSON Schema: an address, or one of the game's
    bots by its lower-case name (the service takes any case and surrounding spaces)."""
    address = {"format": "email", "maxLength": EMAIL_MAX_LENGTH}
    # A person by their player page (User.public_id), as a challenge from that page names them.
    page = {"pattern": "^player:[a-z0-9]{1,16}$"}
    levels = getattr(rules, "BOT_LEVELS", ())
    if not levels:
        return {"type": "string", "anyOf": [address, page]}
    bot = {"pattern": "^bot:(" + "|".join(levels) + ")$"}
    return {"type": "string", "anyOf": [address, bot, page]}


@extend_schema_field({"type": "boolean", "enum": [False], "default": False})
class _NoOptionField(StrictBooleanField):
    """An option the game does not have (Rattenscharf's blind mode): false or left out."""


def _game_create_serializer(game: str) -> type[GameCreateSerializer]:
    """The request schema of a new game of ``game``: ``GameCreateSerializer`` with the
    game's own player counts, bots and options. Documentation only (the view reads every
    game's body with ``GameCreateSerializer`` and the service applies the game's rules);
    tests/api/test_schema.py holds the two to the same answers."""
    rules = rules_for(game)
    counts = sorted(rules.PLAYER_COUNTS)
    levels = getattr(rules, "BOT_LEVELS", ())
    seats = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
    bots_text = f'; "bot:<level>" ({", ".join(levels)}) seats a bot instead' if levels else ""
    players = extend_schema_field(
        {
            "type": "array",
            "items": _player_entry_schema(rules),
            "minItems": counts[0],
            "maxItems": counts[-1],
            "uniqueItems": True,
        }
    )(type(f"{rules.NAME}PlayersField", (BoundedListField,), {}))
    attrs = {
        "__doc__": f"A new game of {rules.NAME}: the players in seat order and the options.",
        "__module__": __name__,
        # Labelled with the game's name: a choice set of its own, not the tables' "game".
        "game": serializers.ChoiceField(choices=[(game, rules.NAME)]),
        "players": players(
            child=PlayerEntryField(),
            min_length=counts[0],
            max_length=counts[-1],
            help_text=f"Seat order: {seats} distinct players, yours among them{bots_text}; "
            '"player:<public id>" seats the person with that player page. '
            "Addresses are compared without regard to case.",
        ),
    }
    if "blind" not in rules.OPTIONS:
        attrs["blind"] = _NoOptionField(
            default=False, help_text=f"{rules.NAME} has no blind mode: false, or leave it out."
        )
    serializer = type(f"{rules.NAME}GameCreateSerializer", (GameCreateSerializer,), attrs)
    return extend_schema_serializer(component_name=f"{rules.NAME}GameCreate")(serializer)


def game_create_schemas() -> dict:
    """Game kind -> the documented shape of a new game's body (the schema's discriminator:
    "game"), for every game in the catalogue."""
    return {spec.kind: _game_create_serializer(spec.kind) for spec in all_specs()}


class AcceptRequestSerializer(StrictSerializer):
    """Accepting a seat: optionally with the player's client seed (an empty body is fine)."""

    client_seed = ClientSeedField(
        help_text="Your optional contribution to the shuffle key (1-64 characters: A-Z, a-z, "
        "0-9, - and _), public once given. The game is dealt with a key derived from the "
        "server's committed seed and every player's client seed.",
    )


class SeatBotSerializer(serializers.Serializer):
    level = serializers.CharField(help_text="The bot's level, one of the game's bot levels.")
    standing_in = serializers.BooleanField(
        help_text="A stand-in for the seat's player, who may take it back."
    )


class SeatSerializer(serializers.Serializer):
    """A seat in a game's answer: the schema of ``representation.seat_json``, which builds it."""

    seat = serializers.IntegerField()
    name = serializers.SerializerMethodField(
        help_text="The player's name, or the bot's with its level: \"Calico Jack (careful "
        'bot)", "Carla (a careful bot stands in)", "Bert (resigned; a careful bot '
        'plays on)".'
    )
    # DRF's serializer metaclass takes declared fields out of the class's attributes, so
    # this one, the output key "label", does not shadow ``Field.label``.
    label = serializers.CharField(  # type: ignore[assignment]
        source="public_name",
        help_text="The short name the pages and emails show: the player's name, or the name "
        'and one word: "Calico Jack · bot", "Carla · bot", "Bert · resigned" (in '
        "the caller's language).",
    )
    role = serializers.SerializerMethodField(
        help_text="Who plays the seat: player, bot (a bot's own seat), stand_in (a bot for "
        "its player, who may take it back) or resigned (the player resigned; a bot plays on)."
    )
    accepted = serializers.BooleanField()

    def get_name(self, seat) -> str:
        return seat_names.full_name(seat)

    @extend_schema_field(
        serializers.ChoiceField(
            choices=[seat_names.PLAYER, seat_names.BOT, seat_names.STAND_IN, seat_names.RESIGNED]
        )
    )
    def get_role(self, seat) -> str:
        return seat_names.seat_role(seat)

    client_seed = serializers.SerializerMethodField(
        help_text="The player's contribution to the shuffle key, or null if they gave none."
    )

    def get_client_seed(self, seat) -> str | None:
        return fairness.public_client_seed(seat)

    bot = serializers.SerializerMethodField(
        help_text="The bot playing this seat, or null while its player plays."
    )
    on_vacation_until = serializers.SerializerMethodField(
        help_text="The end of the player's vacation running now (their clock is paused "
        "until then), or null."
    )

    resigned = serializers.BooleanField(
        help_text="The player resigned (P26, R37): a stand-in bot plays the seat to the end."
    )
    bank_seconds = serializers.IntegerField(
        allow_null=True,
        help_text="Time bank games: the seconds of the seat's bank at the start of its turn "
        "(the turn under way spends from it until the deadline); null for other clocks.",
    )

    @extend_schema_field(SeatBotSerializer(allow_null=True))
    def get_bot(self, seat) -> dict | None:
        return seat_bot_json(seat)

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_on_vacation_until(self, seat) -> str | None:
        return seat_vacation_until(seat)


class GameSerializer(serializers.ModelSerializer):
    """A game as one viewer may see it: ``state`` is the engine's view for their seat.

    The schema of ``representation.game_json``, which builds every answer; this one is
    for the documentation (and the test that holds both equal). Its context must hold
    ``viewer`` (the user asking).
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
            "clock",
            "blind",
            "stand_in_bots",
            "rated",
            "public",
            "talk_public",
            "deadline",
            "state",
            "created_at",
            "updated_at",
            "end_reason",
            "shuffle_commitment",
            "server_seed",
            "host",
            "paused",
            "paused_until",
            "rematch",
        ]

    shuffle_commitment = serializers.SerializerMethodField(
        help_text="SHA-256 commitment to the server seed, published when the game was "
        "created (null for games older than checkable shuffles).",
    )
    server_seed = serializers.SerializerMethodField(
        help_text="The server seed, null until the game has ended (finished, aborted, "
        "cancelled); see GET /api/games/{id}/verification/."
    )

    host = serializers.SerializerMethodField(
        help_text="The seat that holds the host's chair: only its player may pause, resume "
        "and extend. The host's; after the host resigned or deleted their account, the "
        "next person's in seat order still in the game; null when nobody is left."
    )
    clock = serializers.SerializerMethodField(
        help_text="How turns are timed; the time bank's numbers or the daily hour and zone."
    )

    @extend_schema_field(ClockSerializer())
    def get_clock(self, game: Game) -> dict:
        return clocks.clock_json(game)

    rated = serializers.BooleanField(
        help_text="The finished game moves its players' ratings (never with a bot's seat)."
    )
    public = serializers.BooleanField(
        help_text="Anyone may watch the game once it has begun, signed in or not, as a "
        "spectator sees it (the host's choice; GET /api/games/public/ lists them)."
    )
    talk_public = serializers.BooleanField(
        help_text="Spectators of the public game read its table talk too (the host's "
        "choice); they never write."
    )
    paused = serializers.BooleanField(
        source="is_paused",
        help_text="The host has paused the clock: no deadline, no reminders, no timeouts; "
        "moves are still taken.",
    )
    paused_until = serializers.DateTimeField(
        allow_null=True,
        help_text="When a paused game resumes by itself (PAUSE_MAX_DAYS), or null.",
    )
    rematch: serializers.PrimaryKeyRelatedField = serializers.PrimaryKeyRelatedField(
        read_only=True,
        allow_null=True,
        help_text="The id of the rematch a player asked for after this game, or null.",
    )

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_host(self, game: Game) -> int | None:
        return host_seat(game, list(game.seats.all()))

    def get_shuffle_commitment(self, game: Game) -> str | None:
        return game.seed_commitment or None

    def get_server_seed(self, game: Game) -> str | None:
        return fairness.public_server_seed(game)

    def get_you(self, game: Game) -> int | None:
        return watching.viewer_seat(game, self.context["viewer"])

    # One game's view, told apart by its "game" key (games.api.tables); null until the
    # game starts (status "invited", or cancelled before it started).
    @extend_schema_field(game_state_serializer())
    def get_state(self, game: Game) -> dict | None:
        return game.table_view(self.get_you(game))


@extend_schema_field(revealed_serializer())
class RevealedField(serializers.JSONField):
    """A log entry's ``revealed``: a card, a hand of strips or null (games.api.tables)."""


class MoveLogSerializer(serializers.Serializer):
    """A log entry as ``games.movelog.public_log`` builds it (``Move.public_entry``)."""

    number = serializers.IntegerField()
    seat = serializers.IntegerField()
    action = serializers.JSONField()
    revealed = RevealedField(allow_null=True)
    automatic = serializers.BooleanField()
    at = serializers.DateTimeField()

    def to_representation(self, instance: dict) -> dict:
        # The entry's values are already the JSON's (ints, a bool, the action and revealed
        # as stored): only ``at`` needs its field. A log holds hundreds of entries, and
        # DRF's loop over every field of each cost more than reading the moves (decision
        # 0009, "Since: the log's entries and the API key").
        return {
            "number": instance["number"],
            "seat": instance["seat"],
            "action": instance["action"],
            "revealed": instance["revealed"],
            "automatic": instance["automatic"],
            "at": self.fields["at"].to_representation(instance["at"]),
        }
