"""Rattenscharf by email: the first line of a reply as a placement (R28), and what the
player may write now.

A move is a strip, the x,y of its left or top cell, the orientation and an optional flip,
with or without words around them::

    place 17 at 2,0 h | 17 2 0 v flip | lege 17 auf 2,0 waagerecht gedreht
        {"action": "place", "strip": 17, "x": 2, "y": 0, "orientation": "h", "flip": False}
"""

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.grammar import MoveParseError
from games.grammar import normalise as _normalise
from games.kinds.rattenscharf.words import describe_strip

# This grammar's own refusals, as the answer says them (``MoveParseError.detail``).
PARSE_ERRORS = {
    "missing_strip": gettext_lazy("Name the strip you place first, as in “place 17 at 2,0 h”."),
    "missing_position": gettext_lazy(
        "Say where the strip goes: the x,y of its left or top cell, as in “place 17 at 2,0 h”."
    ),
    "missing_orientation": gettext_lazy(
        "Say which way the strip lies: h (horizontal) or v (vertical), as in “place 17 at 2,0 h”."
    ),
}


def parse_move(line: str) -> dict:
    """A Rattenscharf ``place`` action from ``line`` (``GameSpec.mail_grammar``);
    ``MoveParseError`` when it names none."""
    try:
        return parse_placement(line)
    except MoveParseError as error:
        error.detail = PARSE_ERRORS.get(error.code)
        raise


_PLACE = {"place", "lay", "put", "lege", "legen", "platziere", "platzieren", "setze"}
_STRIP = {"strip", "streifen"}
_AT = {"at", "on", "to", "auf", "an", "bei", "nach"}
_HORIZONTAL = {"h", "horizontal", "horizontally", "across", "w", "waagerecht", "waagrecht", "quer"}
_VERTICAL = {"v", "vertical", "vertically", "down", "s", "senkrecht", "vertikal", "hochkant"}
_FLIP = {
    "flip",
    "flipped",
    "reversed",
    "reverse",
    "turned",
    "gedreht",
    "umgedreht",
    "drehen",
    "gewendet",
}
# A minus as some mail clients type it: U+2212 (minus sign) or U+2013 (en dash).
_MINUSES = str.maketrans({"\u2212": "-", "\u2013": "-"})
_NUMBER_RE = re.compile(r"[-+]?\d{1,3}")


def parse_placement(line: str) -> dict:
    """A Rattenscharf ``place`` action (R28) from ``line``: the first number is the strip,
    the next two are x and y (``2,0``, ``(2, 0)``, ``-1 2``), then ``h``/``v`` (or their
    words) and, anywhere after the numbers, an optional flip word."""
    text = re.sub(r"[(),;:]", " ", line.translate(_MINUSES))
    words = [_normalise(word).strip(".!?") for word in text.split()]
    words = [word.lstrip("#") for word in words if word]
    if not words:
        raise MoveParseError("empty")
    if words[0] in _PLACE:
        words = words[1:]
    if words[:1] and words[0] in _STRIP:
        words = words[1:]
    if not words or not _NUMBER_RE.fullmatch(words[0]):
        if words and words[0].isalpha():
            raise MoveParseError("unknown_command", words[0])
        raise MoveParseError("missing_strip")
    strip = _number(words[0])
    rest = words[1:]
    if rest[:1] and rest[0] in _AT:
        rest = rest[1:]
    if len(rest) < 2 or not all(_NUMBER_RE.fullmatch(word) for word in rest[:2]):
        raise MoveParseError("missing_position")
    x, y = _number(rest[0]), _number(rest[1])
    orientation, flip = None, False
    for word in rest[2:]:
        if word in _HORIZONTAL and orientation is None:
            orientation = "h"
        elif word in _VERTICAL and orientation is None:
            orientation = "v"
        elif word in _FLIP and not flip:
            flip = True
        else:
            raise MoveParseError("unexpected_words", word)
    if orientation is None:
        raise MoveParseError("missing_orientation")
    return {
        "action": "place",
        "strip": strip,
        "x": x,
        "y": y,
        "orientation": orientation,
        "flip": flip,
    }


def _number(word: str) -> int:
    return int(word)


def placement_hints(view: dict) -> list[str]:
    """Rattenscharf: one line per strip in the hand, with a legal place for it (R28, R29)."""
    hints = []
    for strip in view["hand"]:
        example = next(
            (a for a in view["legal_actions"] if a["strip"] == strip["id"] and not a["flip"]),
            None,
        )
        if example is None:
            continue
        hints.append(
            _(
                "“place %(id)d at x,y h” (or v, and “flip” to lay it the other way round): "
                "%(strip)s, e.g. “place %(id)d at %(x)d,%(y)d %(orientation)s”"
            )
            % {
                "id": strip["id"],
                "strip": describe_strip(strip["id"], strip["fields"]),
                "x": example["x"],
                "y": example["y"],
                "orientation": example["orientation"],
            }
        )
    return hints
