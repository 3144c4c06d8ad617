"""Request and response shapes of the games API (CONTRACT.md section 2)."""

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
)
from games import actions, fairness, queries
from games.api.tables import game_state_serializer, revealed_serializer
from games.models import Game
from games.rules import available_games, get_rules, piratz
from games.rules.piratz.deck import CARD_COUNT
from games.rules.rattenscharf.board import TABLE_MAX, TABLE_MIN
from games.rules.rattenscharf.strips import STRIP_IDS

# Longest address the user table stores (RFC 5321's 254): SQLite would not enforce it.
EMAIL_MAX_LENGTH = User._meta.get_field("email").max_length
# Versions are stored as 32-bit integers; a larger one can never be a game's version.
VERSION_MAX = 2**31 - 1


class PlayerEntryField(serializers.CharField):
    """A seat of a new game: the player's address, or ``"bot:<level>"`` for a bot.

    The level is checked against the game's rules (``BOT_LEVELS``) by the service.
    """

    def to_internal_value(self, data):
        value = super().to_internal_value(data).strip()
        if value.lower().startswith("bot:"):
            return value.lower()
        return serializers.EmailField(max_length=EMAIL_MAX_LENGTH).run_validation(value)


class ClientSeedField(ArrivesAsJsonString, serializers.RegexField):
    """A client seed (games.fairness): a JSON string of 1-64 characters A-Z a-z 0-9 - _."""

    def __init__(self, **kwargs):
        super().__init__(r"^[A-Za-z0-9_-]{1,64}$", max_length=64, required=False, **kwargs)


class GameCreateSerializer(StrictSerializer):
    """A new game: which game, the players in seat order, the turn length, blind mode.

    The number of players and the options are the game's rules' (``PLAYER_COUNTS``,
    ``OPTIONS``), checked by the service: Rattenscharf seats exactly 2, without blind mode.
    """

    game = serializers.ChoiceField(choices=available_games())
    players = BoundedListField(
        child=PlayerEntryField(),
        min_length=2,
        max_length=4,
        help_text="Seat order: as many distinct addresses as the game seats (Piratz 2-4, "
        'Rattenscharf 2), yours among them; "bot:<level>" (e.g. "bot:careful") seats a bot '
        "instead.",
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
        help_text="Let a careful bot take the seat of a player who times out "
        "STAND_IN_AFTER_TIMEOUTS turns in a row, or instead of abandoning the game (P25). "
        "Default: on for 3-4 players.",
    )


# --- The schema of a new game: one shape per game (its seats, its options) ------------------


def _player_entry_schema(rules) -> dict:
    """A seat of a new game of ``rules``, as JSON Schema: an address, or one of the game's
    bots by its lower-case name (the service takes any case and surrounding spaces)."""
    address = {"format": "email", "maxLength": EMAIL_MAX_LENGTH}
    levels = getattr(rules, "BOT_LEVELS", ())
    if not levels:
        return {"type": "string", **address}
    bot = {"pattern": "^bot:(" + "|".join(levels) + ")$"}
    return {"type": "string", "anyOf": [address, bot]}


@extend_schema_field({"type": "boolean", "enum": [False], "default": False})
class _NoOptionField(StrictBooleanField):
    """An option the game does not have (Rattenscharf's blind mode): false or left out."""


def _game_create_serializer(game: str) -> type[GameCreateSerializer]:
    """The request schema of a new game of ``game``: ``GameCreateSerializer`` with the
    game's own player counts, bots and options. Documentation only (the view reads every
    game's body with ``GameCreateSerializer`` and the service applies the game's rules);
    tests/api/test_schema.py holds the two to the same answers."""
    rules = get_rules(game)
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
            help_text=f"Seat order: {seats} distinct players, yours among them{bots_text}. "
            "Addresses are compared without regard to case.",
        ),
    }
    if "blind" not in rules.OPTIONS:
        attrs["blind"] = _NoOptionField(
            default=False, help_text=f"{rules.NAME} has no blind mode: false, or leave it out."
        )
    serializer = type(f"{rules.NAME}GameCreateSerializer", (GameCreateSerializer,), attrs)
    return extend_schema_serializer(component_name=f"{rules.NAME}GameCreate")(serializer)


# Game name -> the documented shape of a new game's body (the schema's discriminator: "game").
GAME_CREATE_SCHEMAS = {game: _game_create_serializer(game) for game in available_games()}


class AcceptRequestSerializer(StrictSerializer):
    """Accepting a seat: optionally with the player's client seed (an empty body is fine)."""

    client_seed = ClientSeedField(
        help_text="Your optional contribution to the shuffle key (1-64 characters: A-Z, a-z, "
        "0-9, - and _), public once given. The game is dealt with a key derived from the "
        "server's committed seed and every player's client seed.",
    )


# CONTRACT.md section 1: each Piratz action's fields besides "action", exactly these.
PIRATZ_ACTION_FIELDS = {
    "reveal": (),
    "end_turn": (),
    "pass": ("treasure", "bury"),
    "resolve_alarm": ("keep", "bury"),
}
_CARD_ID = {"min_value": 1, "max_value": CARD_COUNT}


@extend_schema_serializer(component_name="PiratzMove")  # the schema adds "Request"
class PiratzMoveSerializer(StrictSerializer):
    """A Piratz move: the version it was chosen from, and the action's own fields beside it.

    Everything that could never be legal is refused here, as ``invalid``: an unknown
    action, fields the action does not take or lacks, a treasure that does not exist, a
    card id outside the deck. What remains is a well-formed action, and whether it is
    legal now is the engine's call (``illegal_action``).
    """

    version = StrictIntegerField(min_value=0, max_value=VERSION_MAX)
    action = serializers.ChoiceField(choices=list(PIRATZ_ACTION_FIELDS))
    treasure = serializers.ChoiceField(
        choices=piratz.TREASURES, required=False, help_text="pass: the treasure type named."
    )
    bury = StrictIntegerField(
        required=False,
        allow_null=True,
        **_CARD_ID,
        help_text="pass, resolve_alarm: the card buried, or null when no card is left.",
    )
    keep = StrictIntegerField(required=False, **_CARD_ID, help_text="resolve_alarm: the rat kept.")

    def validate(self, attrs):
        attrs = super().validate(attrs)
        kind = attrs["action"]
        takes = set(PIRATZ_ACTION_FIELDS[kind])
        given = set(self.initial_data) - {"version", "action"}
        if given != takes:
            if takes:
                message = _("Besides version and action, a %(kind)s move takes exactly %(fields)s.")
            else:
                message = _("Besides version and action, a %(kind)s move takes no other fields.")
            raise serializers.ValidationError(
                message % {"kind": kind, "fields": ", ".join(sorted(takes))}
            )
        return attrs

    def to_action(self) -> dict:
        """The action dict for the engine, in CONTRACT.md's shape: the move minus ``version``."""
        kind = self.validated_data["action"]
        return {
            "action": kind,
            **{name: self.validated_data[name] for name in PIRATZ_ACTION_FIELDS[kind]},
        }


def _piratz_action_serializer(kind: str) -> type[StrictSerializer]:
    """The request schema of one Piratz action's move: ``version``, ``action`` (this one)
    and exactly the action's own fields, all required (CONTRACT section 1). Documentation
    only: ``PiratzMoveSerializer`` reads every Piratz move and gives the errors;
    tests/api/test_schema.py holds the two to the same answers."""
    declared = PiratzMoveSerializer._declared_fields
    attrs = {
        "__doc__": f"A Piratz {kind} move: the version it was chosen from"
        + (
            f" and exactly {', '.join(PIRATZ_ACTION_FIELDS[kind])}."
            if PIRATZ_ACTION_FIELDS[kind]
            else ", nothing else."
        ),
        "__module__": __name__,
        "version": StrictIntegerField(min_value=0, max_value=VERSION_MAX),
        "action": serializers.ChoiceField(choices=[kind]),
    }
    for name in PIRATZ_ACTION_FIELDS[kind]:
        field = declared[name]
        attrs[name] = type(field)(*field._args, **{**field._kwargs, "required": True})
    title = "".join(part.capitalize() for part in kind.split("_"))
    serializer = type(f"Piratz{title}MoveSerializer", (StrictSerializer,), attrs)
    return extend_schema_serializer(component_name=f"Piratz{title}Move")(serializer)


# Piratz action name -> the documented shape of its move (one per action, as the API reads it).
PIRATZ_ACTION_SCHEMAS = {kind: _piratz_action_serializer(kind) for kind in PIRATZ_ACTION_FIELDS}


# RATTENSCHARF.md R28: the one action's fields besides "action", exactly these.
RATTENSCHARF_ACTION_FIELDS = ("strip", "x", "y", "orientation", "flip")
_TABLE = {"min_value": TABLE_MIN, "max_value": TABLE_MAX}


@extend_schema_serializer(component_name="RattenscharfMove")
class RattenscharfMoveSerializer(StrictSerializer):
    """A Rattenscharf move (R28): the version it was chosen from and one placement.

    Every field is required and strictly typed (ints, never booleans or strings; ``flip``
    a boolean): a strip that does not exist or a corner off the table is ``invalid``, as
    it could never be legal. Whether the placement is legal now (the strip in hand, the
    cells on the table, level, covering another strip, touching the layout: R10-R13,
    R17) is the engine's call (``illegal_action``).
    """

    version = StrictIntegerField(min_value=0, max_value=VERSION_MAX)
    action = serializers.ChoiceField(choices=["place"])
    strip = StrictIntegerField(
        min_value=min(STRIP_IDS),
        max_value=max(STRIP_IDS),
        help_text="The strip laid, one of your hand.",
    )
    x = StrictIntegerField(**_TABLE, help_text="The column of the strip's first cell.")
    y = StrictIntegerField(**_TABLE, help_text="The row of the strip's first cell.")
    orientation = serializers.ChoiceField(
        choices=["h", "v"], help_text="h: the cells run to the right; v: downwards."
    )
    flip = StrictBooleanField(help_text="Lay the strip's fields in reverse order.")

    def to_action(self) -> dict:
        """The action dict for the engine (R28): the move minus ``version``."""
        data = self.validated_data
        return {"action": "place", **{name: data[name] for name in RATTENSCHARF_ACTION_FIELDS}}


class AnyGameMoveSerializer(StrictSerializer):
    """A move in a game without a move serializer of its own: ``version`` and the action's
    fields beside it, passed to the engine as they are (its ``malformed`` codes answer
    ``invalid``, the rest ``illegal_action``)."""

    version = StrictIntegerField(min_value=0, max_value=VERSION_MAX)
    action = serializers.CharField()

    def validate(self, attrs):
        return attrs  # every other field belongs to the action: the engine judges them

    def to_action(self) -> dict:
        return {key: value for key, value in self.initial_data.items() if key != "version"}


# Game name -> the serializer of its moves' bodies. A game not listed here gets
# AnyGameMoveSerializer (its engine alone judges the action); one listed gets a typed
# body in the OpenAPI schema and errors before the game row is locked.
MOVE_SERIALIZERS = {
    "piratz": PiratzMoveSerializer,
    "rattenscharf": RattenscharfMoveSerializer,
}


def _action_names(serializer_class) -> list[str]:
    """The action names a move serializer accepts (its ``action`` field's choices)."""
    return list(serializer_class().fields["action"].choices)


# Each game's action names, as its serializer accepts them.
MOVE_ACTIONS = {game: _action_names(s) for game, s in MOVE_SERIALIZERS.items()}
# Action name -> the serializer that reads it: the body chooses (and the schema's
# discriminator, games.api.views). Names are unique across games (a test holds them so).
SERIALIZER_OF_ACTION = {
    action: MOVE_SERIALIZERS[game] for game, names in MOVE_ACTIONS.items() for action in names
}


# Action name -> the serializer whose schema documents that action's move: the OpenAPI
# request body is one shape per action (games.api.views), each with exactly its fields.
MOVE_SCHEMA_OF_ACTION = {**SERIALIZER_OF_ACTION, **PIRATZ_ACTION_SCHEMAS}


def move_serializer_for_action(action) -> type[serializers.Serializer]:
    """The serializer that reads a move's body whose ``action`` is ``action``: the one of
    the game that has that action, else ``AnyGameMoveSerializer`` (the engine judges).

    Action names are unique across the games with serializers (a test holds them so), so
    the body alone chooses; the game's engine refuses another game's action (``invalid``).
    """
    if not isinstance(action, str):
        return AnyGameMoveSerializer
    return SERIALIZER_OF_ACTION.get(action, AnyGameMoveSerializer)


class SeatBotSerializer(serializers.Serializer):
    level = serializers.CharField(help_text="The bot's level, one of the game's bot levels.")
    standing_in = serializers.BooleanField(
        help_text="A stand-in for the seat's player, who may take it back."
    )


# Formats a datetime as DRF's DateTimeField does (ISO 8601, UTC as "Z"); it needs no parent.
_DATETIME = serializers.DateTimeField()


def _datetime(value) -> str | None:
    return None if value is None else _DATETIME.to_representation(value)


class PlannedRepresentation:
    """A read serializer whose output is planned once per class, not once per instance.

    DRF builds and binds a serializer's fields on every instance before using them
    (for a ModelSerializer that is model introspection plus deep copies, ~0.4 ms for a
    game, and as much again for its nested seats): a cost every move POST and game GET
    paid. Here the fields are built once, on a prototype, and each call walks that plan
    with DRF's own steps (``get_attribute``, ``None`` stays ``None``,
    ``to_representation``): method fields are called on this instance, nested
    serializers get an instance with this one's context. So the output is DRF's, key
    for key (``tests/api/test_game_representation.py`` holds it so), for whatever
    fields a subclass declares, provided its plain fields read nothing from the
    serializer's context (true of every field here; a hyperlinked field would not be).
    """

    @classmethod
    def _plan(cls) -> list:
        plan = cls.__dict__.get("_representation_plan")
        if plan is None:  # two threads may both build it: the same plan, no harm
            plan = []
            for field in cls().fields.values():
                if field.write_only:
                    continue
                if isinstance(field, serializers.SerializerMethodField):
                    plan.append((field.field_name, "method", field.method_name))
                elif isinstance(field, serializers.ListSerializer):
                    plan.append((field.field_name, "many", (field, type(field.child))))
                elif isinstance(field, serializers.BaseSerializer):
                    plan.append((field.field_name, "one", (field, type(field))))
                else:
                    plan.append((field.field_name, "field", field))
            cls._representation_plan = plan
        return plan

    def to_representation(self, instance) -> dict:
        out = {}
        for name, kind, item in self._plan():
            if kind == "method":
                out[name] = getattr(self, item)(instance)
                continue
            field = item if kind == "field" else item[0]
            try:
                attribute = field.get_attribute(instance)
            except serializers.SkipField:
                continue
            if attribute is None:
                out[name] = None
            elif kind == "field":
                out[name] = field.to_representation(attribute)
            else:
                child = item[1](context=self.context)
                if kind == "one":
                    out[name] = child.to_representation(attribute)
                else:
                    rows = attribute.all() if hasattr(attribute, "all") else attribute
                    out[name] = [child.to_representation(row) for row in rows]
        return out


class SeatSerializer(PlannedRepresentation, serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField(
        source="public_name", help_text="The player's name, or the bot's with its level."
    )
    accepted = serializers.BooleanField()
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

    @extend_schema_field(SeatBotSerializer(allow_null=True))
    def get_bot(self, seat) -> dict | None:
        if not seat.bot:
            return None
        return {"level": seat.bot, "standing_in": seat.user_id is not None}

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_on_vacation_until(self, seat) -> str | None:
        # Seats read through queries.SEATS_WITH_USERS carry it: no query per seat.
        if hasattr(seat, "on_vacation_until"):
            until = seat.on_vacation_until
        else:
            until = queries.vacation_until(seat.user_id)
        return _datetime(until)


class GameSerializer(PlannedRepresentation, serializers.ModelSerializer):
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
            "stand_in_bots",
            "deadline",
            "state",
            "created_at",
            "updated_at",
            "end_reason",
            "shuffle_commitment",
            "server_seed",
        ]

    shuffle_commitment = serializers.SerializerMethodField(
        help_text="SHA-256 commitment to the server seed, published when the game was "
        "created (null for games older than checkable shuffles).",
    )
    server_seed = serializers.SerializerMethodField(
        help_text="The server seed, null until the game has ended (finished, aborted, "
        "cancelled); see GET /api/games/{id}/verification/."
    )

    def get_shuffle_commitment(self, game: Game) -> str | None:
        return game.seed_commitment or None

    def get_server_seed(self, game: Game) -> str | None:
        return fairness.public_server_seed(game)

    def get_you(self, game: Game) -> int | None:
        return queries.seat_of(game, self.context["viewer"])

    # One game's view, told apart by its "game" key (games.api.tables); null until the
    # game starts (status "invited", or cancelled before it started).
    @extend_schema_field(game_state_serializer())
    def get_state(self, game: Game) -> dict | None:
        # Hidden information is the engine's business: view() strips what this seat may not
        # see; table_view() also shows an aborted game as ended.
        return game.table_view(self.get_you(game))


@extend_schema_field(revealed_serializer())
class RevealedField(serializers.JSONField):
    """A log entry's ``revealed``: a card, a hand of strips or null (games.api.tables)."""


class MoveLogSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seat = serializers.IntegerField()
    action = serializers.JSONField()
    revealed = RevealedField(allow_null=True)
    automatic = serializers.BooleanField()
    at = serializers.DateTimeField()
