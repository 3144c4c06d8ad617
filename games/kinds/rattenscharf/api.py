"""Rattenscharf in the API: the move serializer (R28) and the JSON Schema of its view (R31)
and of the hand a turn-ending placement revealed (R33)."""

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from core.api.fields import StrictBooleanField, StrictIntegerField, StrictSerializer
from games.api.moves import VERSION_MAX
from games.api.tables import BOOL, INT, NULLABLE_INT, STR, array, obj, ref, view_schema
from games.kinds.rattenscharf.rules.board import TABLE_MAX, TABLE_MIN
from games.kinds.rattenscharf.rules.strips import STRIP_IDS

# R28: the one action's fields besides "action", exactly these.
RATTENSCHARF_ACTION_FIELDS = ("strip", "x", "y", "orientation", "flip")


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
    x = StrictIntegerField(
        min_value=TABLE_MIN, max_value=TABLE_MAX, help_text="The column of the strip's first cell."
    )
    y = StrictIntegerField(
        min_value=TABLE_MIN, max_value=TABLE_MAX, help_text="The row of the strip's first cell."
    )
    orientation = serializers.ChoiceField(
        choices=["h", "v"], help_text="h: the cells run to the right; v: downwards."
    )
    flip = StrictBooleanField(help_text="Lay the strip's fields in reverse order.")

    def to_action(self) -> dict:
        """The action dict for the engine (R28): the move minus ``version``."""
        data = self.validated_data
        return {"action": "place", **{name: data[name] for name in RATTENSCHARF_ACTION_FIELDS}}


SCHEMA_PARTS = {
    "Strip": obj(
        {
            "id": INT,
            "fields": array(
                STR,
                minItems=3,
                maxItems=3,
                description='Its three symbols in printed order: "red:chili", "green:rat", '
                '"empty"... (R3).',
            ),
        },
        description="A Rattenscharf strip (R31).",
    ),
    "RattenscharfScoring": obj(
        {
            "seat": INT,
            "spice": STR,
            "cells": array(array(INT, minItems=2, maxItems=2), description="[x, y] pairs."),
            "points": INT,
        },
        description="A group that scored (R20, R25).",
    ),
}

_RATTENSCHARF_RESULT = obj(
    {
        "reason": {
            "type": "string",
            "description": "complete (R24-R26), rats (R23) or resigned (R37).",
        },
        "rat_loser": NULLABLE_INT,
        "final_scoring": array(ref("RattenscharfScoring")),
        "players": array(
            obj(
                {
                    "seat": INT,
                    "colour": STR,
                    "placement_points": INT,
                    "final_points": INT,
                    "score": INT,
                    "visible_rats": INT,
                }
            )
        ),
        "winners": array(INT),
    },
    nullable=True,
    description="Null until the game is finished (R32).",
)
# Only when a player resigned (R37): not required, so not in obj()'s "required" list.
_RATTENSCHARF_RESULT["properties"]["resigned"] = array(
    INT, description="The seat that resigned (R37); the other player won."
)


TABLE_SCHEMA = view_schema(
    "rattenscharf",
    {
        "turn": INT,
        "current_seat": NULLABLE_INT,
        "colours": array(STR),
        "scores": array(INT),
        "visible_rats": array(INT),
        "hand": array(ref("Strip"), description="Strips still to lay this turn."),
        "draw_pile": INT,
        "unseen": array(ref("Strip"), description="The pile as a set, sorted by id."),
        "table": obj({"min": INT, "max": INT}),
        "placements": array(
            obj(
                {
                    "strip": INT,
                    "x": INT,
                    "y": INT,
                    "orientation": STR,
                    "flip": BOOL,
                    "level": INT,
                    "fields": array(STR),
                    "seat": NULLABLE_INT,
                    "turn": INT,
                }
            ),
            description="Oldest first, the start strip first.",
        ),
        "cells": array(
            obj(
                {
                    "x": INT,
                    "y": INT,
                    "height": INT,
                    "strip": INT,
                    "symbol": STR,
                }
            ),
            description="The visible layer, sorted by y then x.",
        ),
        "last_scoring": array(ref("RattenscharfScoring")),
        "legal_actions": array(
            obj(
                {
                    "action": STR,
                    "strip": INT,
                    "x": INT,
                    "y": INT,
                    "orientation": STR,
                    "flip": BOOL,
                }
            ),
            description="Every legal placement (R29); send one as a move.",
        ),
        "result": _RATTENSCHARF_RESULT,
    },
    description="A Rattenscharf table as one seat may see it (docs/rules/rattenscharf.md#R31).",
)

# The next hand a turn-ending placement revealed (R33).
REVEALED_SCHEMA = array(ref("Strip"))
