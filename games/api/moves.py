"""Reading a move's body, for any game: each game's move serializer, chosen by the action.

A game's spec names the serializer of its moves (``GameSpec.move_serializer``); its
action names are unique across the games (a test holds them so), so the body's
``action`` alone chooses, without reading the game first. A game without one gets
``AnyGameMoveSerializer``: ``version`` plus the action's fields, judged by the engine.
"""

import functools

from rest_framework import serializers

from core.api.fields import StrictIntegerField, StrictSerializer
from games.catalogue import GameSpec, all_specs

# Versions are stored as 32-bit integers; a larger one can never be a game's version.
VERSION_MAX = 2**31 - 1


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


def action_names(serializer_class) -> list[str]:
    """The action names a move serializer accepts (its ``action`` field's choices)."""
    return list(serializer_class().fields["action"].choices)


def move_serializers() -> dict[str, type[serializers.Serializer]]:
    """Game kind -> the serializer of its moves, for the games that have one."""
    return {spec.kind: spec.move_serializer for spec in all_specs() if spec.move_serializer}


@functools.cache
def _serializer_of_action(
    specs: tuple[GameSpec, ...],
) -> dict[str, type[serializers.Serializer]]:
    return {
        action: spec.move_serializer
        for spec in specs
        if spec.move_serializer
        for action in action_names(spec.move_serializer)
    }


def serializer_of_action() -> dict[str, type[serializers.Serializer]]:
    """Action name -> the serializer of the game that has it."""
    return _serializer_of_action(tuple(all_specs()))


def move_serializer_for_action(action) -> type[serializers.Serializer]:
    """The serializer that reads a move's body whose ``action`` is ``action``: the one of
    the game that has that action, else ``AnyGameMoveSerializer`` (the engine judges).

    The game's engine refuses another game's action (``invalid``) inside the service.
    """
    if not isinstance(action, str):
        return AnyGameMoveSerializer
    return serializer_of_action().get(action, AnyGameMoveSerializer)


def move_schema_of_action() -> dict[str, type[serializers.Serializer]]:
    """Action name -> the serializer whose schema documents that action's move (OpenAPI: one
    request shape per action): a game's ``move_schemas``, else its move serializer."""
    schemas = dict(serializer_of_action())
    for spec in all_specs():
        schemas.update(spec.move_schemas)
    return schemas
