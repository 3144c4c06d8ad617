"""The OpenAPI shapes of each game's table (its rules' ``view``) and of what a move revealed.

A game answer's ``state`` is one game's view: a union discriminated on the view's own
``game`` key (``GameStateSerializer``); a log entry's ``revealed`` is whatever the game's
move turned up (a Piratz card, a Rattenscharf hand of strips) or null. Each game's spec
gives its view's JSON Schema (``GameSpec.table_schema``, built with the helpers here),
checked against the engines' views by tests/api/test_schema.py and against the served
answers by the conformance run; a game without one is documented as an object with the
keys every view starts with. Response shapes only: nothing here reads a body.
"""

import copy
import functools
from collections.abc import Mapping

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from games.catalogue import GameSpec, all_specs


def ref(name: str) -> dict:
    """A reference to the component ``name`` (one of the games' ``schema_parts``)."""
    return {"$ref": f"#/components/schemas/{name}"}


INT = {"type": "integer"}
BOOL = {"type": "boolean"}
STR = {"type": "string"}
NULLABLE_INT = {"type": "integer", "nullable": True}


def obj(properties: dict, **extra) -> dict:
    """An object with exactly these keys, all present (views are complete)."""
    return {"type": "object", "properties": properties, "required": list(properties), **extra}


def array(items: dict, **extra) -> dict:
    """A list of ``items``."""
    return {"type": "array", "items": items, **extra}


_STATUS = {
    "type": "string",
    "description": "active, finished, or aborted (by a moderator, or abandoned).",
}


def view_schema(game: str, fields: dict, description: str) -> dict:
    """The schema of ``game``'s view: the keys every game's view starts with (its name, the
    number of players, the reader's seat, the status), then its own ``fields``."""
    return obj(
        {
            "game": {"type": "string", "enum": [game]},
            "players": INT,
            "seat": {**NULLABLE_INT, "description": "Your seat; null for a spectator."},
            "status": _STATUS,
            **fields,
        },
        description=description,
    )


class SchemaOnlySerializer(serializers.Serializer):
    """A response shape given as JSON Schema (``schema``), named ``component_name`` in the
    OpenAPI components; never used to serialise anything."""

    component_name = ""
    schema: dict = {}
    refers_to_parts = True  # its schema may use the games' schema_parts components


class _SchemaOnlyExtension(OpenApiSerializerExtension):
    target_class = SchemaOnlySerializer
    match_subclasses = True

    def get_name(self, auto_schema, direction):
        return self.target.component_name

    def map_serializer(self, auto_schema, direction):
        if self.target.refers_to_parts:  # the parts it may refer to become components
            for part in _serializers(tuple(all_specs()))["parts"].values():
                auto_schema.resolve_serializer(part(), direction)
        # A copy: the generator's hooks edit schemas in place (enums become components).
        return copy.deepcopy(self.target.schema)


def _schema_only(name: str, schema: Mapping, **attrs) -> type[SchemaOnlySerializer]:
    return type(
        f"{name}Serializer",
        (SchemaOnlySerializer,),
        {"component_name": name, "schema": schema, **attrs},
    )


def table_schema(spec: GameSpec) -> dict:
    """The JSON Schema of ``spec``'s view: its own, else the keys every view starts with
    (any others allowed)."""
    if spec.table_schema is not None:
        return dict(spec.table_schema)
    return {
        **view_schema(spec.kind, {}, f"A {spec.name} table as one seat may see it."),
        "additionalProperties": True,
    }


def revealed_schema(specs) -> dict:
    """What a log entry's ``revealed`` holds: one of the games' ``revealed_schema`` (a game
    without one reveals nothing), or null."""
    shapes = [dict(spec.revealed_schema) for spec in specs if spec.revealed_schema is not None]
    return {
        **({"oneOf": shapes} if shapes else {}),
        "nullable": True,
        "description": "What the move turned up, as its game describes it (a Piratz reveal's "
        "card, the next hand of strips after a Rattenscharf turn), or null.",
    }


@functools.cache
def _serializers(specs: tuple[GameSpec, ...]) -> dict:
    """The schema-only serializers of these games: ``parts``, ``tables`` (by kind) and
    ``revealed``; made once per set of games, as the schema generator names components
    by class."""
    parts = {name: schema for spec in specs for name, schema in spec.schema_parts.items()}
    return {
        "parts": {
            name: _schema_only(name, schema, refers_to_parts=False)
            for name, schema in parts.items()
        },
        "tables": {
            spec.kind: _schema_only(f"{spec.kind.capitalize()}Table", table_schema(spec))
            for spec in specs
        },
        "revealed": _schema_only("Revealed", revealed_schema(specs)),
    }


def game_state_serializer() -> PolymorphicProxySerializer:
    """The schema of a game answer's ``state``: one game's view, by its ``game`` key, or null
    before the game starts."""
    return PolymorphicProxySerializer(
        component_name="GameState",
        # A callable: the catalogue is read when the schema is generated, not at import.
        serializers=lambda: _serializers(tuple(all_specs()))["tables"],
        resource_type_field_name="game",
        allow_null=True,
    )


class RevealedSerializer(SchemaOnlySerializer):
    """A log entry's ``revealed`` (``revealed_schema`` of every game), read when the schema
    is generated."""

    component_name = "Revealed"

    # Read-only on purpose: computed from the catalogue when the schema is generated.
    @property
    def schema(self):  # type: ignore[override]
        return _serializers(tuple(all_specs()))["revealed"].schema


def revealed_serializer() -> type[SchemaOnlySerializer]:
    return RevealedSerializer
