"""Strict request fields: a value must arrive as the JSON type it is, and bounded.

DRF is lenient by default (it takes "12" for 12 and checks each item of a list before the
list's length); the API's contract is not (docs/api.md).
"""

import heapq
from collections.abc import Mapping, Sized
from typing import TYPE_CHECKING, cast

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework import serializers

# At most this many unknown fields are named in an answer: a body with 100,000 of them is
# answered as briefly as one with six.
MAX_UNKNOWN_FIELDS_NAMED = 5


def unknown_fields(data: Mapping, known) -> tuple[list[str], int]:
    """The first ``MAX_UNKNOWN_FIELDS_NAMED`` keys of ``data`` not in ``known`` (sorted), and
    how many unknown keys there are in all."""
    unknown = [key for key in data if key not in known]
    return heapq.nsmallest(MAX_UNKNOWN_FIELDS_NAMED, unknown), len(unknown)


def more_unknown_fields(count: int) -> str:
    """The sentence for ``count`` unknown fields an answer leaves unnamed."""
    return ngettext("%(count)d more unknown field.", "%(count)d more unknown fields.", count) % {
        "count": count
    }


class StrictSerializer(serializers.Serializer):
    """A serializer that rejects fields it does not know: a typo must not pass silently."""

    rejects_unknown_fields = True  # the schema says additionalProperties: false

    def validate(self, attrs):
        named, count = unknown_fields(self.initial_data, self.fields)
        if named:
            message = _("Unknown fields: %(fields)s.") % {"fields": ", ".join(named)}
            if count > len(named):
                message += " " + more_unknown_fields(count - len(named))
            raise serializers.ValidationError(message)
        return attrs


class BoundedListField(serializers.ListField):
    """A list with a ``max_length`` (required) that is checked before any item is.

    DRF's ``ListField`` validates every item first and its length after, answering each
    bad item: a body of a million addresses took minutes, gigabytes and a 99 MB answer to
    be refused. Every list the API reads is one of these (tests/api/test_oversized_input.py).
    """

    def __init__(self, **kwargs):
        if kwargs.get("max_length") is None:
            raise TypeError(f"{type(self).__name__} needs a max_length.")
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        # __init__ refused a field without max_length.
        too_long = isinstance(data, Sized) and len(data) > cast(int, self.max_length)
        if too_long and not isinstance(data, (str, Mapping)):
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)


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


# The mixin's methods are those of the DRF field it is mixed into.
if TYPE_CHECKING:
    _FieldBase = serializers.Field
else:
    _FieldBase = object


class ArrivesAsJsonString(_FieldBase):
    """Mixin for a DRF field whose value must arrive as a JSON string (else the field's own
    ``invalid`` error): DRF's string fields turn 12 into "12", its UUIDField takes an
    integer (and so a boolean) as the UUID's 128-bit number."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(ArrivesAsJsonString, serializers.CharField):
    """A string that must arrive as a JSON string."""


class StrictUUIDField(ArrivesAsJsonString, serializers.UUIDField):
    """A UUID that must arrive as a JSON string."""


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    detail = serializers.CharField()
