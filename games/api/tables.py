"""The OpenAPI shapes of each game's table (its rules' ``view``) and of what a move revealed.

A game answer's ``state`` is one game's view: a union discriminated on the view's own
``game`` key (``GameStateSerializer``); a log entry's ``revealed`` is whatever the game's
move turned up (a Piratz card, a Rattenscharf hand of strips) or null. Each game's view
is written here once as JSON Schema (``TABLE_SCHEMAS``, by game name: a third game adds
its own), checked against the engines' views by tests/api/test_schema.py and against the
served answers by the conformance run. Response shapes only: nothing here reads a body.
"""

import copy

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


_INT = {"type": "integer"}
_BOOL = {"type": "boolean"}
_STR = {"type": "string"}
_NULLABLE_INT = {"type": "integer", "nullable": True}


def _object(properties: dict, **extra) -> dict:
    """An object with exactly these keys, all present (views are complete)."""
    return {"type": "object", "properties": properties, "required": list(properties), **extra}


def _list(items: dict, **extra) -> dict:
    return {"type": "array", "items": items, **extra}


# Shared parts, components of their own (referenced by name).
PARTS = {
    "Card": _object(
        {
            "id": _INT,
            "treasures": {
                "type": "object",
                "additionalProperties": _INT,
                "description": "Treasure type -> how many (rules P1 order).",
            },
            "rat": _BOOL,
            "skull": _BOOL,
        },
        description="A Piratz card (CONTRACT section 1).",
    ),
    "Strip": _object(
        {
            "id": _INT,
            "fields": _list(
                _STR,
                minItems=3,
                maxItems=3,
                description='Its three symbols in printed order: "red:chili", "green:rat", '
                '"empty"... (R3).',
            ),
        },
        description="A Rattenscharf strip (R31).",
    ),
    "RattenscharfScoring": _object(
        {
            "seat": _INT,
            "spice": _STR,
            "cells": _list(_list(_INT, minItems=2, maxItems=2), description="[x, y] pairs."),
            "points": _INT,
        },
        description="A group that scored (R20, R25).",
    ),
}

_PIRATZ_RESULT = _object(
    {
        "players": _list(
            _object(
                {
                    "seat": _INT,
                    "items": {"type": "object", "additionalProperties": _INT},
                    "rats": _INT,
                    "cards": _INT,
                    "cubes": _list(_INT),
                    "score": _INT,
                }
            )
        ),
        "awards": {
            "type": "object",
            "additionalProperties": _list(_object({"seat": _INT, "value": _INT})),
        },
        "winners": _list(_INT),
    },
    nullable=True,
    description="Null until the game is finished.",
)

_RATTENSCHARF_RESULT = _object(
    {
        "reason": {"type": "string", "description": "complete (R24-R26) or rats (R23)."},
        "rat_loser": _NULLABLE_INT,
        "final_scoring": _list(_ref("RattenscharfScoring")),
        "players": _list(
            _object(
                {
                    "seat": _INT,
                    "colour": _STR,
                    "placement_points": _INT,
                    "final_points": _INT,
                    "score": _INT,
                    "visible_rats": _INT,
                }
            )
        ),
        "winners": _list(_INT),
    },
    nullable=True,
    description="Null until the game is finished (R32).",
)

_STATUS = {
    "type": "string",
    "description": "active, finished, or aborted (by a moderator, or abandoned).",
}


def _view(game: str, fields: dict, description: str) -> dict:
    """The schema of ``game``'s view: the keys every game's view starts with (its name, the
    number of players, the reader's seat, the status), then its own ``fields``."""
    return _object(
        {
            "game": {"type": "string", "enum": [game]},
            "players": _INT,
            "seat": {**_NULLABLE_INT, "description": "Your seat; null for a spectator."},
            "status": _STATUS,
            **fields,
        },
        description=description,
    )


# Game name -> the JSON Schema of its rules' view (CONTRACT section 1, RATTENSCHARF.md R31).
TABLE_SCHEMAS = {
    "piratz": _view(
        "piratz",
        {
            "round": _INT,
            "current_seat": _NULLABLE_INT,
            "phase": {
                "type": "string",
                "nullable": True,
                "description": "turn, decide or alarm (P9-P14); null once over.",
            },
            "last_round": _BOOL,
            "draw_pile": _INT,
            "discard_pile": _INT,
            "face_up": _list(_ref("Card")),
            "buried": _list(_object({"seat": _INT, "card": _ref("Card")})),
            "spades": _list(_BOOL),
            "cubes": {"type": "object", "additionalProperties": _list(_INT)},
            "collected": _list(
                _object(
                    {
                        "count": _INT,
                        "cards": _list(
                            _ref("Card"),
                            nullable=True,
                            description="Null in blind mode until the end (P23).",
                        ),
                    }
                )
            ),
            "unseen": _list(
                _ref("Card"), nullable=True, description="Null in blind mode until the end."
            ),
            "legal_actions": _list(
                {"type": "object", "description": "A Piratz action (CONTRACT section 1)."}
            ),
            "result": _PIRATZ_RESULT,
        },
        description="A Piratz table as one seat may see it (CONTRACT section 1, view).",
    ),
    "rattenscharf": _view(
        "rattenscharf",
        {
            "turn": _INT,
            "current_seat": _NULLABLE_INT,
            "colours": _list(_STR),
            "scores": _list(_INT),
            "visible_rats": _list(_INT),
            "hand": _list(_ref("Strip"), description="Strips still to lay this turn."),
            "draw_pile": _INT,
            "unseen": _list(_ref("Strip"), description="The pile as a set, sorted by id."),
            "table": _object({"min": _INT, "max": _INT}),
            "placements": _list(
                _object(
                    {
                        "strip": _INT,
                        "x": _INT,
                        "y": _INT,
                        "orientation": _STR,
                        "flip": _BOOL,
                        "level": _INT,
                        "fields": _list(_STR),
                        "seat": _NULLABLE_INT,
                        "turn": _INT,
                    }
                ),
                description="Oldest first, the start strip first.",
            ),
            "cells": _list(
                _object(
                    {
                        "x": _INT,
                        "y": _INT,
                        "height": _INT,
                        "strip": _INT,
                        "symbol": _STR,
                    }
                ),
                description="The visible layer, sorted by y then x.",
            ),
            "last_scoring": _list(_ref("RattenscharfScoring")),
            "legal_actions": _list(
                _object(
                    {
                        "action": _STR,
                        "strip": _INT,
                        "x": _INT,
                        "y": _INT,
                        "orientation": _STR,
                        "flip": _BOOL,
                    }
                ),
                description="Every legal placement (R29); send one as a move.",
            ),
            "result": _RATTENSCHARF_RESULT,
        },
        description="A Rattenscharf table as one seat may see it (RATTENSCHARF.md R31).",
    ),
}

# What a log entry's ``revealed`` holds: a Piratz reveal's card, the next hand a
# Rattenscharf turn-ending placement revealed (R33), or null.
REVEALED_SCHEMA = {
    "oneOf": [_ref("Card"), _list(_ref("Strip"))],
    "nullable": True,
    "description": "What the move turned up: a card (Piratz reveal), the next hand of "
    "strips (Rattenscharf, on a move that ends a turn), or null.",
}


class SchemaOnlySerializer(serializers.Serializer):
    """A response shape given as JSON Schema (``schema``), named ``component_name`` in the
    OpenAPI components; never used to serialise anything."""

    component_name = ""
    schema: dict = {}
    refers_to_parts = True  # its schema may use PARTS' components


class _SchemaOnlyExtension(OpenApiSerializerExtension):
    target_class = SchemaOnlySerializer
    match_subclasses = True

    def get_name(self, auto_schema, direction):
        return self.target.component_name

    def map_serializer(self, auto_schema, direction):
        if self.target.refers_to_parts:  # the parts it may refer to become components
            for part in _PART_SERIALIZERS.values():
                auto_schema.resolve_serializer(part(), direction)
        # A copy: the generator's hooks edit schemas in place (enums become components).
        return copy.deepcopy(self.target.schema)


def _schema_only(name: str, schema: dict, **attrs) -> type[SchemaOnlySerializer]:
    return type(
        f"{name}Serializer",
        (SchemaOnlySerializer,),
        {"component_name": name, "schema": schema, **attrs},
    )


_PART_SERIALIZERS = {
    name: _schema_only(name, schema, refers_to_parts=False) for name, schema in PARTS.items()
}
TABLE_SERIALIZERS = {
    game: _schema_only(f"{game.capitalize()}Table", schema)
    for game, schema in TABLE_SCHEMAS.items()
}


def game_state_serializer() -> PolymorphicProxySerializer:
    """The schema of a game answer's ``state``: one game's view, by its ``game`` key, or null
    before the game starts."""
    return PolymorphicProxySerializer(
        component_name="GameState",
        serializers=TABLE_SERIALIZERS,
        resource_type_field_name="game",
        allow_null=True,
    )


def revealed_serializer() -> type[SchemaOnlySerializer]:
    return _schema_only("Revealed", REVEALED_SCHEMA)
