"""Geometry, the cell index and scoring (R6-R13, R19-R25): pure functions on plain values.

The index of a table is ``Board(grid, frontier, rats)``:

- ``grid``: ``(x, y) -> (height, top strip id, visible symbol)`` for every cell of height
  >= 1 (R8), so a cell is looked up, never searched for;
- ``frontier``: the bare cells that share an edge with an occupied cell (R13's contact);
- ``rats``: the visible rats per seat's colour (R22).

Boards are never changed once built (``memo`` only caches what they determine). A
placement copies the small dict and set and updates three cells, so legal_actions
looks only at occupied cells (raised windows) and frontier cells (table windows) instead
of the whole 31 x 31 table.
"""

from typing import NamedTuple

from .strips import RAT_SEAT, SPICE_SEAT, STRIPS

TABLE_MIN = -15  # R6
TABLE_MAX = 15
ORIENTATIONS = ("h", "v")
_STEP = {"h": (1, 0), "v": (0, 1)}
_NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))


class Board(NamedTuple):
    grid: dict
    frontier: frozenset
    rats: tuple
    memo: dict  # derived values cached per board (legal windows); never part of the game


def window(x, y, orientation):
    """The three cells of a placement, in R7's cell order (left to right, top to bottom)."""
    dx, dy = _STEP[orientation]
    return ((x, y), (x + dx, y + dy), (x + 2 * dx, y + 2 * dy))


def laid_fields(strip, flip):
    """The strip's fields in the cell order of R7 (reversed when flipped)."""
    fields = STRIPS[strip]
    return fields[::-1] if flip else fields


def empty_board():
    return Board({}, frozenset(), (0, 0), {})


def place(board, strip, x, y, orientation, flip):
    """Return ``(new board, level)`` after laying the strip (legality already checked)."""
    cells = window(x, y, orientation)
    grid = dict(board.grid)
    level = grid[cells[0]][0] + 1 if cells[0] in grid else 1
    rats = list(board.rats)
    for cell, symbol in zip(cells, laid_fields(strip, flip), strict=True):
        old = grid.get(cell)
        if old is not None and old[2] in RAT_SEAT:
            rats[RAT_SEAT[old[2]]] -= 1
        if symbol in RAT_SEAT:
            rats[RAT_SEAT[symbol]] += 1
        grid[cell] = (level, strip, symbol)
    frontier = board.frontier
    if level == 1:  # only table-level strips change which cells are occupied
        frontier = set(frontier).difference(cells)
        for cx, cy in cells:
            for dx, dy in _NEIGHBOURS:
                near = (cx + dx, cy + dy)
                if near not in grid:
                    frontier.add(near)
        frontier = frozenset(frontier)
    return Board(grid, frontier, tuple(rats), {}), level


def on_table(cell):
    return TABLE_MIN <= cell[0] <= TABLE_MAX and TABLE_MIN <= cell[1] <= TABLE_MAX


def window_error(board, x, y, orientation, contact=True):
    """The first R30 code among off_table, gap, exact_cover, no_contact, or None if legal.

    ``contact=False`` checks R10-R12 only (R35's "stuck" test).
    """
    cells = window(x, y, orientation)
    if not (on_table(cells[0]) and on_table(cells[2])):
        return "off_table"
    grid = board.grid
    a, b, c = (grid.get(cell) for cell in cells)
    ha = a[0] if a else 0
    if (b[0] if b else 0) != ha or (c[0] if c else 0) != ha:
        return "gap"
    if ha:
        if a[1] == b[1] == c[1]:
            return "exact_cover"
        return None
    if contact and not any(cell in board.frontier for cell in cells):
        return "no_contact"
    return None


def legal_windows(board):
    """Every legal ``(x, y, orientation)`` (R10-R13), sorted by y, then x, then orientation.

    The same checks as ``window_error``, inlined over the only candidates there are:
    raised windows start on an occupied cell, table windows hold a frontier cell (so they
    have contact). Computed once per board (boards are never changed) and cached.
    """
    cached = board.memo.get("windows")
    if cached is not None:
        return cached
    grid = board.grid
    legal = []
    for (cx, cy), (h, top, _) in grid.items():
        b, c = grid.get((cx + 1, cy)), grid.get((cx + 2, cy))
        if b and c and b[0] == h == c[0] and not (b[1] == top == c[1]) and cx + 2 <= TABLE_MAX:
            legal.append((cx, cy, "h"))
        b, c = grid.get((cx, cy + 1)), grid.get((cx, cy + 2))
        if b and c and b[0] == h == c[0] and not (b[1] == top == c[1]) and cy + 2 <= TABLE_MAX:
            legal.append((cx, cy, "v"))
    table = set()
    for fx, fy in board.frontier:
        for k in range(3):
            x = fx - k
            if (
                x >= TABLE_MIN
                and x + 2 <= TABLE_MAX
                and TABLE_MIN <= fy <= TABLE_MAX
                and (x, fy) not in grid
                and (x + 1, fy) not in grid
                and (x + 2, fy) not in grid
            ):
                table.add((x, fy, "h"))
            y = fy - k
            if (
                y >= TABLE_MIN
                and y + 2 <= TABLE_MAX
                and TABLE_MIN <= fx <= TABLE_MAX
                and (fx, y) not in grid
                and (fx, y + 1) not in grid
                and (fx, y + 2) not in grid
            ):
                table.add((fx, y, "v"))
    legal.extend(table)
    legal.sort(key=lambda w: (w[1], w[0], w[2]))
    windows = tuple(legal)
    board.memo["windows"] = windows
    return windows


def is_stuck(board, cell):
    """R35: no placement satisfying R10-R12 has ``cell`` among its cells."""
    x, y = cell
    for k in range(3):
        if window_error(board, x - k, y, "h", contact=False) is None:
            return False
        if window_error(board, x, y - k, "v", contact=False) is None:
            return False
    return True


def _group(grid, start, spice):
    """The cells connected to ``start`` through edges showing ``spice`` (R19), as a set."""
    seen = {start}
    todo = [start]
    while todo:
        cx, cy = todo.pop()
        for dx, dy in _NEIGHBOURS:
            near = (cx + dx, cy + dy)
            if near not in seen:
                entry = grid.get(near)
                if entry is not None and entry[2] == spice:
                    seen.add(near)
                    todo.append(near)
    return seen


def _value(size):
    return 2 if size >= 3 else 1  # R19, for groups of 2 or more


def _sort_cells(cells):
    return sorted(cells, key=lambda c: (c[1], c[0]))


def _event(spice, cells):
    ordered = _sort_cells(cells)
    return (SPICE_SEAT[spice], spice, tuple(ordered), _value(len(ordered)))


def _sort_events(events):
    return tuple(sorted(events, key=lambda e: (e[2][0][1], e[2][0][0])))


def placement_scoring(before, after, cells):
    """R20: the groups of ``after`` that score for the strip just laid on ``cells``.

    Returns events ``(seat, spice, cells sorted by y then x, points)`` sorted by their
    first cell. A group scores when it has 2+ cells, holds a new cell and is not a group
    of ``before`` with exactly the same cells.
    """
    events = []
    done = set()
    new_grid, old_grid = after.grid, before.grid
    for cell in cells:
        spice = new_grid[cell][2]
        if cell in done or spice not in SPICE_SEAT:
            continue
        group = _group(new_grid, cell, spice)
        done |= group
        if len(group) < 2:
            continue
        first = next(iter(group))
        old = old_grid.get(first)
        if old is not None and old[2] == spice and _group(old_grid, first, spice) == group:
            continue  # R20(c)/R21: the same group as before is not "changed"
        events.append(_event(spice, group))
    return _sort_events(events)


def lay(board, strip, x, y, orientation, flip):
    """``(new board, level, R20 events)`` of laying the strip (legality already checked):
    ``place`` and ``placement_scoring`` in one step, as a move, a preview or a replay of the
    public log lays it."""
    after, level = place(board, strip, x, y, orientation, flip)
    return after, level, placement_scoring(board, after, window(x, y, orientation))


def final_scoring(board):
    """R25: every group of 2+ cells of the visible layer, as events sorted by first cell."""
    events = []
    done = set()
    for cell, (_, _, symbol) in board.grid.items():
        if cell in done or symbol not in SPICE_SEAT:
            continue
        group = _group(board.grid, cell, symbol)
        done |= group
        if len(group) >= 2:
            events.append(_event(symbol, group))
    return _sort_events(events)
