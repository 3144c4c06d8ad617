"""Helpers for the Rattenscharf tests: spec orders, short actions and the spec's diagrams."""

from games.kinds.rattenscharf import rules as rs

ALL = tuple(range(1, 43))
ABBREVIATIONS = {
    "red:chili": "rCh",
    "red:paprika": "rPa",
    "red:saffron": "rSa",
    "red:cinnamon": "rCi",
    "green:jalapeno": "gJa",
    "green:basil": "gBa",
    "green:cardamom": "gCa",
    "green:wasabi": "gWa",
    "red:rat": "rRt",
    "green:rat": "gRt",
    "empty": "---",
    "start": "Sta",
}


def order(*first):
    """The spec's orders: the strips named, then all others in ascending id order."""
    return list(first) + [s for s in ALL if s not in first]


def game(*first):
    return rs.new_game(order=order(*first))


GAME_A = (1, 3, 13, 10, 2, 9, 4)
GAME_S = (7, 17, 38, 31, 19)
GAME_R = (17, 20, 18, 24, 33, 41, 42)


def act(strip, x, y, orientation="h", flip=False):
    return {
        "action": "place",
        "strip": strip,
        "x": x,
        "y": y,
        "orientation": orientation,
        "flip": flip,
    }


# docs/rules/rattenscharf.md, Example 5 (game GAME_R), placement by placement: red lays a rat,
# green's turn 4 ends with three green rats visible and loses (R22, R23).
EXAMPLE_5 = (
    act(17, 2, 0),
    act(20, -1, 1),
    act(18, 2, 1),
    act(24, -1, 2),
    act(33, 1, 0),
    act(41, 2, 2),
    act(42, 5, 0, "v"),
)


def play(state, *actions):
    """Apply each action for the seat to move; return the final state."""
    for action in actions:
        state = rs.apply(state, rs.current_seat(state), action)
    return state


def error_code(state, action, seat=None):
    """The IllegalAction code ``apply`` raises, or None when the action is legal."""
    try:
        rs.apply(state, rs.current_seat(state) if seat is None else seat, action)
    except rs.IllegalAction as error:
        return error.code
    return None


def parse_diagram(text):
    """A spec diagram as ``{(x, y): "rCh1"}`` for every cell it shows ("." for bare)."""
    lines = [line for line in text.strip("\n").splitlines() if line.strip()]
    xs = [int(v) for v in lines[0].split()[1:]]
    cells = {}
    for line in lines[1:]:
        y, *values = line.split()
        for x, value in zip(xs, values, strict=True):
            cells[x, int(y)] = value
    return cells


def render(state, area):
    """The state's visible layer in diagram notation over the cells of ``area``."""
    shown = {(c["x"], c["y"]): c for c in rs.view(state, None)["cells"]}
    out = {}
    for cell in area:
        entry = shown.get(cell)
        out[cell] = "." if entry is None else f"{ABBREVIATIONS[entry['symbol']]}{entry['height']}"
    return out


def assert_diagram(state, text):
    expected = parse_diagram(text)
    assert render(state, expected) == expected


def naive_legal_windows(state):
    """R10-R13 by brute force over the whole table, from the placements alone."""
    height, top = {}, {}
    for p in rs.view(state, None)["placements"]:
        dx, dy = (1, 0) if p["orientation"] == "h" else (0, 1)
        for k in range(3):
            cell = (p["x"] + k * dx, p["y"] + k * dy)
            height[cell] = p["level"]
            top[cell] = p["strip"]
    legal = []
    for y in range(-15, 16):
        for x in range(-15, 16):
            for o, (dx, dy) in (("h", (1, 0)), ("v", (0, 1))):
                cells = [(x + k * dx, y + k * dy) for k in range(3)]
                if any(not (-15 <= cx <= 15 and -15 <= cy <= 15) for cx, cy in cells):
                    continue
                hs = {height.get(c, 0) for c in cells}
                if len(hs) != 1:
                    continue
                if hs == {0}:
                    near = {
                        (cx + ex, cy + ey)
                        for cx, cy in cells
                        for ex, ey in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    }
                    if not any(height.get(c, 0) for c in near):
                        continue
                elif len({top[c] for c in cells}) == 1:
                    continue
                legal.append((x, y, o))
    return legal
