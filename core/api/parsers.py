"""The API's JSON parser: DRF's, refusing bodies nested deeper than any request needs."""

from collections.abc import Iterable

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

# No request body of this API nests more than three levels ({"players": [...]}); the
# limit leaves room and stays far below Python's recursion limit, which code reading the
# parsed data (repr, validators, error messages) would otherwise meet and crash on.
MAX_DEPTH = 32


class JSONParser(parsers.JSONParser):
    """``application/json``, as DRF parses it, with a nesting limit of ``MAX_DEPTH``.

    Too deep a body is a ``ParseError`` (400 ``invalid``), never a 500: Python's JSON
    decoder raises ``RecursionError`` on deep nesting (``[`` x 100,000), and data just
    under that limit would crash whatever walks it next.
    """

    def parse(self, stream, media_type=None, parser_context=None):
        too_deep = _("The JSON body nests more than %(depth)d levels deep.") % {"depth": MAX_DEPTH}
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(too_deep) from None
        if _depth_exceeds(data, MAX_DEPTH):
            raise ParseError(too_deep)
        return data


def _depth_exceeds(data, limit: int) -> bool:
    """Whether lists and objects in ``data`` nest deeper than ``limit`` (no recursion)."""
    pending = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        children: Iterable[object]
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            return True
        pending.extend((child, depth + 1) for child in children)
    return False
