"""The Rattenscharf board's geometry for the template ``games/rattenscharf/board.html``.

``{% rattenscharf_layout board_view as board %}`` turns a view-shaped dict (R31's
``cells``, ``table`` and ``last_scoring``) into what the template draws: the SVG viewBox,
each visible cell with its symbol, height and words, the strip outlines and the axes.
Only the visible layer is read, so whatever draws a board shows nothing else.
"""

from django import template
from django.utils.translation import gettext as _

from games.kinds.rattenscharf.table import symbol_id
from games.kinds.rattenscharf.words import symbol_name

register = template.Library()

CELL = 40  # SVG units per cell
# Bare cells shown around the occupied ones: a table-level strip can reach 3 cells out
# (one cell touching the table, two beyond it: R13), so every legal place is on the board.
MARGIN = 3
# Where an axis label's baseline sits in its cell. Whole numbers only: the template
# prints them, and a float would be localised ("26,0" in German) into a broken attribute.
AXIS_BASELINE = CELL * 13 // 20
# Heights with their own shade; higher ones share the last.
SHADES = 4
_SIDES = ((0, -1, "top"), (1, 0, "right"), (0, 1, "bottom"), (-1, 0, "left"))


def bounds(cells: list[dict], table: dict, margin: int = MARGIN) -> tuple[int, int, int, int]:
    """``(min_x, max_x, min_y, max_y)`` of the board drawn: the cells plus ``margin``,
    within the table (R6)."""
    xs = [c["x"] for c in cells] or [0]
    ys = [c["y"] for c in cells] or [0]
    low, high = table["min"], table["max"]
    return (
        max(low, min(xs) - margin),
        min(high, max(xs) + margin),
        max(low, min(ys) - margin),
        min(high, max(ys) + margin),
    )


def _outline(cells: dict) -> str:
    """An SVG path along every edge between two different top strips (or a strip and the
    bare table): the outlines of the strips' visible parts."""
    parts = []
    for (x, y), cell in cells.items():
        for dx, dy, side in _SIDES:
            near = cells.get((x + dx, y + dy))
            if near is not None and near["strip"] == cell["strip"]:
                continue
            if near is not None and (dx < 0 or dy < 0):
                continue  # an edge between two cells is drawn once, from its left/top cell
            left, top = x * CELL, y * CELL
            if side == "top":
                parts.append(f"M{left} {top}h{CELL}")
            elif side == "bottom":
                parts.append(f"M{left} {top + CELL}h{CELL}")
            elif side == "left":
                parts.append(f"M{left} {top}v{CELL}")
            else:
                parts.append(f"M{left + CELL} {top}v{CELL}")
    return "".join(parts)


def _table_edge(min_x, max_x, min_y, max_y, table) -> str:
    """An SVG path along the sides of the drawn area that are the table's edge (R6)."""
    left, right = min_x * CELL, (max_x + 1) * CELL
    top, bottom = min_y * CELL, (max_y + 1) * CELL
    parts = []
    if min_y == table["min"]:
        parts.append(f"M{left} {top}H{right}")
    if max_y == table["max"]:
        parts.append(f"M{left} {bottom}H{right}")
    if min_x == table["min"]:
        parts.append(f"M{left} {top}V{bottom}")
    if max_x == table["max"]:
        parts.append(f"M{right} {top}V{bottom}")
    return "".join(parts)


@register.simple_tag
def rattenscharf_layout(board_view: dict) -> dict:
    """What ``board.html`` draws for ``board_view`` (see that template's contract)."""
    cells = board_view.get("cells") or []
    table = board_view.get("table") or {"min": -15, "max": 15}
    min_x, max_x, min_y, max_y = bounds(cells, table)
    scored = {(x, y) for event in board_view.get("last_scoring") or [] for x, y in event["cells"]}
    by_position = {(c["x"], c["y"]): c for c in cells}
    drawn = []
    for cell in cells:
        x, y = cell["x"], cell["y"]
        drawn.append(
            {
                **cell,
                "left": x * CELL,
                "top": y * CELL,
                "symbol_id": symbol_id(cell["symbol"]),
                "word": symbol_name(cell["symbol"]),
                "shade": min(cell["height"], SHADES),
                "scored": (x, y) in scored,
                "label": _("(%(x)d, %(y)d): %(symbol)s, height %(height)d")
                % {"x": x, "y": y, "symbol": symbol_name(cell["symbol"]), "height": cell["height"]},
            }
        )
    # One cell of room above and to the left for the coordinates.
    left, top = (min_x - 1) * CELL, (min_y - 1) * CELL
    columns, rows = max_x - min_x + 2, max_y - min_y + 2
    return {
        "cell": CELL,
        "view_box": f"{left} {top} {columns * CELL} {rows * CELL}",
        "columns": columns,
        "rows": rows,
        "min_x": min_x,
        "max_x": max_x,
        "min_y": min_y,
        "max_y": max_y,
        "area": {
            "left": min_x * CELL,
            "top": min_y * CELL,
            "width": (max_x - min_x + 1) * CELL,
            "height": (max_y - min_y + 1) * CELL,
        },
        "x_axis": [
            {"value": x, "at": x * CELL + CELL // 2, "y": top + AXIS_BASELINE}
            for x in range(min_x, max_x + 1)
        ],
        "y_axis": [
            {"value": y, "at": y * CELL + AXIS_BASELINE, "x": left + CELL // 2}
            for y in range(min_y, max_y + 1)
        ],
        "cells": drawn,
        "outline": _outline(by_position),
        "edge": _table_edge(min_x, max_x, min_y, max_y, table),
        "scored": bool(scored),
    }
