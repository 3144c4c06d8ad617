"""What the Rattenscharf rules page draws (``GameSpec.rules_context``): real strips, and the
box's scoring example (docs/rules/rattenscharf.md, Example 3) played by the engine and
drawn with the table's own board, before and after the strip that scores for both.
"""

from games.kinds.rattenscharf import rules as rules
from games.kinds.rattenscharf import words
from games.kinds.rattenscharf.table import symbol_id

# Game A of docs/rules/rattenscharf.md: these strips first, then the rest by id.
EXAMPLE_FIRST = (1, 3, 13, 10, 2, 9, 4)
# Turns 1 to 3 of Game A, (seat, action); the last placement is the box's example.
EXAMPLE_MOVES = (
    (0, {"strip": 1, "x": 2, "y": 0, "orientation": "h", "flip": False}),
    (1, {"strip": 3, "x": 2, "y": 1, "orientation": "h", "flip": False}),
    (1, {"strip": 13, "x": 0, "y": 0, "orientation": "h", "flip": False}),
    (0, {"strip": 10, "x": 3, "y": 2, "orientation": "h", "flip": False}),
    (0, {"strip": 2, "x": 4, "y": 0, "orientation": "v", "flip": True}),
)
# Strips shown flat: the hand of turn 3, and one with a rat of each colour.
SHOWN_STRIPS = (10, 2, 41)


def example_views() -> tuple[dict, dict]:
    """The public views (R31) before and after the example's scoring placement."""
    rest = sorted(set(rules.STRIPS) - {0} - set(EXAMPLE_FIRST))
    state = rules.new_game(order=[*EXAMPLE_FIRST, *rest])
    views = []
    for seat, action in EXAMPLE_MOVES:
        views.append(rules.view(state, None))
        state = rules.apply(state, seat, {"action": "place", **action})
    return views[-1], rules.view(state, None)


def strip_drawing(strip: int) -> dict:
    """A strip as ``games/rattenscharf/strip.html`` draws it, fields in printed order."""
    fields = list(rules.STRIPS[strip])
    return {
        "id": strip,
        "fields": [{"id": symbol_id(f), "word": words.symbol_name(f)} for f in fields],
        "words": words.field_names(fields),
    }


def rules_context() -> dict:
    """The strips and the two boards of the example, and the points after it."""
    before, after = example_views()
    return {
        "shown_strips": [strip_drawing(s) for s in SHOWN_STRIPS],
        "example_before": before,
        "example_after": after,
    }
