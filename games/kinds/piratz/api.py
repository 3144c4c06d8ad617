"""Piratz in the API: the move serializer, one documented shape per action, and the JSON
Schema of its view (docs/api.md "The engine's entry points") and of a reveal's card."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from core.api.fields import StrictIntegerField, StrictSerializer
from games.api.moves import VERSION_MAX
from games.api.tables import BOOL, INT, NULLABLE_INT, array, obj, ref, view_schema
from games.kinds.piratz import rules as piratz
from games.kinds.piratz.rules.deck import CARD_COUNT

# docs/api.md "The engine's entry points": each Piratz action's fields but "action", exactly.
PIRATZ_ACTION_FIELDS = {
    "reveal": (),
    "end_turn": (),
    "pass": ("treasure", "bury"),
    "resolve_alarm": ("keep", "bury"),
}

# The action fields, made afresh for the serializer that reads every move (each optional)
# and for each action's documented shape (each required).
_ACTION_FIELD_MAKERS = {
    "treasure": lambda required: serializers.ChoiceField(
        choices=piratz.TREASURES, required=required, help_text="pass: the treasure type named."
    ),
    "bury": lambda required: StrictIntegerField(
        required=required,
        allow_null=True,
        min_value=1,
        max_value=CARD_COUNT,
        help_text="pass, resolve_alarm: the card buried, or null when no card is left.",
    ),
    "keep": lambda required: StrictIntegerField(
        required=required,
        min_value=1,
        max_value=CARD_COUNT,
        help_text="resolve_alarm: the rat kept.",
    ),
}


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
    treasure = _ACTION_FIELD_MAKERS["treasure"](required=False)
    bury = _ACTION_FIELD_MAKERS["bury"](required=False)
    keep = _ACTION_FIELD_MAKERS["keep"](required=False)

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
        """The action dict for the engine (its entry points' shape): the move minus ``version``."""
        kind = self.validated_data["action"]
        return {
            "action": kind,
            **{name: self.validated_data[name] for name in PIRATZ_ACTION_FIELDS[kind]},
        }


def _piratz_action_serializer(kind: str) -> type[StrictSerializer]:
    """The request schema of one Piratz action's move: ``version``, ``action`` (this one)
    and exactly the action's own fields, all required (docs/api.md "The engine's entry points").
    Documentation only: ``PiratzMoveSerializer`` reads every Piratz move and gives the errors;
    tests/api/test_schema.py holds the two to the same answers."""
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
        attrs[name] = _ACTION_FIELD_MAKERS[name](required=True)
    title = "".join(part.capitalize() for part in kind.split("_"))
    serializer = type(f"Piratz{title}MoveSerializer", (StrictSerializer,), attrs)
    return extend_schema_serializer(component_name=f"Piratz{title}Move")(serializer)


# Piratz action name -> the documented shape of its move (one per action, as the API reads it).
PIRATZ_ACTION_SCHEMAS = {kind: _piratz_action_serializer(kind) for kind in PIRATZ_ACTION_FIELDS}


SCHEMA_PARTS = {
    "Card": obj(
        {
            "id": INT,
            "treasures": {
                "type": "object",
                "additionalProperties": INT,
                "description": "Treasure type -> how many (rules P1 order).",
            },
            "rat": BOOL,
            "skull": BOOL,
        },
        description="A Piratz card (docs/api.md#the-engines-entry-points).",
    ),
}

_PIRATZ_RESULT = obj(
    {
        "players": array(
            obj(
                {
                    "seat": INT,
                    "items": {"type": "object", "additionalProperties": INT},
                    "rats": INT,
                    "cards": INT,
                    "cubes": array(INT),
                    "score": INT,
                }
            )
        ),
        "awards": {
            "type": "object",
            "additionalProperties": array(obj({"seat": INT, "value": INT})),
        },
        "winners": array(INT),
    },
    nullable=True,
    description="Null until the game is finished.",
)
# Only when seats resigned (P26): not required, so not in obj()'s "required" list.
_PIRATZ_RESULT["properties"]["resigned"] = array(
    INT, description="The seats that resigned (P26); they are not among the winners."
)


TABLE_SCHEMA = view_schema(
    "piratz",
    {
        "round": INT,
        "current_seat": NULLABLE_INT,
        "phase": {
            "type": "string",
            "nullable": True,
            "description": "turn, decide or alarm (P9-P14); null once over.",
        },
        "last_round": BOOL,
        "draw_pile": INT,
        "discard_pile": INT,
        "face_up": array(ref("Card")),
        "buried": array(obj({"seat": INT, "card": ref("Card")})),
        "spades": array(BOOL),
        "cubes": {"type": "object", "additionalProperties": array(INT)},
        "collected": array(
            obj(
                {
                    "count": INT,
                    "cards": array(
                        ref("Card"),
                        nullable=True,
                        description="Null in blind mode until the end (P23).",
                    ),
                }
            )
        ),
        "unseen": array(
            ref("Card"), nullable=True, description="Null in blind mode until the end."
        ),
        "legal_actions": array(
            {"type": "object", "description": "Piratz action: docs/api.md#the-engines-entry-points"}
        ),
        "result": _PIRATZ_RESULT,
    },
    description="A Piratz table as one seat may see it (docs/api.md#the-engines-entry-points).",
)

# A reveal's card (the only move that turns something up).
REVEALED_SCHEMA = ref("Card")
