"""Computer players for Rattenscharf: pure functions from what one seat may see to a legal action.

A bot gets exactly what a human at that seat gets: ``view(state, seat)`` (R31). In
Rattenscharf that is everything but the draw order (R33): the table, both scores, the
hand and the unseen strips as a set. So a bot rebuilds the table from the view's
``placements`` (``state.board_of``) and never needs a ``State`` or the pile. ``memory`` (the
public move log) adds nothing the view lacks and is ignored. ``rng`` is the only source of
randomness (only ``random`` uses it), so a fixed ``random.Random`` makes every decision
reproducible.

Levels (``LEVELS``):

- ``random``: a uniformly random legal action. It ends most games by its own rats
  within a dozen moves.
- ``careful``: one placement at a time, greedy: the most points for itself minus the
  opponent's, then the fewest own rats visible, then R35's compact layout. It never ends
  its own turn with 3 or more own rats visible when that can be avoided (R22): with two
  strips in hand, a first placement is taken only if the other strip can then be laid so
  that fewer than 3 own rats show.
- ``strong``: plans both strips of the turn together (the hand is public, R17): the most
  promising first placements of either strip, each followed by every placement of the
  other. It values the table the turn leaves: points scored, what final scoring would
  give each side now (R25, weighted by how far the game has gone), own and opponent rats,
  and above all rats that can never be covered again (R35's "stuck" rats: three of them
  lose the game at the end of a turn).
"""

from collections.abc import Iterable, Sequence

from games.engine_common import checked_bot_choice

from .board import (
    final_scoring,
    is_stuck,
    laid_fields,
    legal_windows,
    place,
    window,
    window_error,
)
from .engine import RAT_LIMIT
from .state import board_of
from .strips import RAT_SEAT, SPICE_SEAT, STRIP_IDS, STRIPS

LEVELS = ("random", "careful", "strong")
# The level that stands in for a player (``games.bots.stand_in_level``): it plays
# sensibly at a fraction of ``strong``'s cost per decision.
STAND_IN_LEVEL = "careful"

_NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))
_TOTAL_STRIPS = len(STRIP_IDS)

# strong: how many first placements (of either strip) it follows with every placement of
# the other strip, and how many whole plans it values in full (stuck rats, final
# scoring). Chosen from measurements (BENCHMARKS.md "Bots/Rattenscharf").
STRONG_FIRST = 40
STRONG_FULL = 48
# strong's weights, in points, by how many rats of a colour show (index: the count, the
# last entry for any more). One's own rats can be added to by the opponent's strips, and
# a stuck one can never be covered again: two stuck rats lose to any third the opponent
# lays where it cannot be covered. The opponent's rats are the same threat to them.
OWN_RATS = (0.0, 1.0, 4.0)
OWN_STUCK = (0.0, 3.0, 12.0)
OPPONENT_RATS = (0.0, 0.5, 2.0, 4.0)
OPPONENT_STUCK = (0.0, 1.5, 6.0, 25.0)
# The cheap value that chooses which plans are valued in full: per rat.
QUICK_OWN_RAT = 1.5
QUICK_OPPONENT_RAT = 0.5
LOSS = -1000.0


def choose_action(view: dict, level: str, rng, memory: Sequence[dict] = ()) -> dict:
    """Return the action the bot of ``level`` plays from ``view`` (a fresh dict).

    ``view`` is ``view(state, seat)`` for the bot's own seat, ``rng`` (a
    ``random.Random``) the only randomness used, ``memory`` the public log (unused: the
    view shows everything but the draw order). The result is always one of
    ``view["legal_actions"]``. Raises ``ValueError`` for an unknown level or a view with no
    legal actions.
    """

    def choose(legal: list[dict]) -> dict:
        if level == "random":
            return rng.choice(legal)
        table = _Table(view)
        return _careful(table) if level == "careful" else _strong(table)

    return checked_bot_choice(view, level, LEVELS, choose)


# --- what the seat knows -------------------------------------------------------------------


class _Table:
    """The bot's picture of the game, from the view only."""

    __slots__ = ("board", "hand", "last_turn", "legal", "placed", "seat")

    def __init__(self, view):
        self.seat = view["seat"]
        self.legal = view["legal_actions"]
        self.hand = tuple(strip["id"] for strip in view["hand"])
        self.board = board_of(view)
        self.placed = len(view["placements"]) - 1
        # No strip left to draw: final scoring follows this turn (or the opponent's last).
        self.last_turn = view["draw_pile"] == 0


def _effect(grid, rats, strip, x, y, orientation, flip):
    """What laying ``strip`` there does, without building the next board: the points it
    gives each seat (R20) and the visible rats per seat afterwards (R22).

    The same result as ``board.place`` + ``placement_scoring`` (a test compares them), at a
    fraction of the cost: the three new cells are an overlay on the old grid.
    """
    gained, rats, _ = _effect_and_groups(grid, rats, window(x, y, orientation), strip, flip)
    return gained, rats


def _effect_and_groups(grid, rats, cells, strip, flip):
    """``_effect`` of laying ``strip`` on ``cells``, and the cells of every spice group
    it walked: what it read of ``grid`` is those cells, their neighbours and ``cells``."""
    overlay = dict(zip(cells, laid_fields(strip, flip), strict=True))
    red, green = rats
    for cell, symbol in overlay.items():
        old = grid.get(cell)
        if old is not None and old[2] in RAT_SEAT:
            if RAT_SEAT[old[2]]:
                green -= 1
            else:
                red -= 1
        if symbol in RAT_SEAT:
            if RAT_SEAT[symbol]:
                green += 1
            else:
                red += 1
    gained = [0, 0]
    done = set()
    for cell, spice in overlay.items():
        if cell in done or spice not in SPICE_SEAT:
            continue
        group = {cell}
        todo = [cell]
        while todo:
            cx, cy = todo.pop()
            for dx, dy in _NEIGHBOURS:
                near = (cx + dx, cy + dy)
                if near in group:
                    continue
                symbol = overlay.get(near)
                if symbol is None:
                    entry = grid.get(near)
                    symbol = entry[2] if entry is not None else None
                if symbol == spice:
                    group.add(near)
                    todo.append(near)
        done |= group
        if len(group) < 2:
            continue
        if _same_group_before(grid, group, spice):
            continue  # R20(c), R21: unchanged groups do not score again
        gained[SPICE_SEAT[spice]] += 2 if len(group) >= 3 else 1
    return gained, (red, green), done


def _cells_read(cells, groups):
    """The cells ``_effect_and_groups`` read of the grid: ``cells``, ``groups`` (its third
    result) and their neighbours. On any grid that agrees there, its result is the same."""
    read = set(cells) | groups
    for cx, cy in groups:
        for dx, dy in _NEIGHBOURS:
            read.add((cx + dx, cy + dy))
    return read


class _SecondStrips:
    """The second strip's ``_effect`` after each first placement of a turn, worked out once
    on the table before the turn and reused wherever the first placement did not change a
    cell it read: the same result as ``_effect`` on the table after the first placement,
    for a fraction of the cost (``strong`` asks it of every window after each of its
    ``STRONG_FIRST`` first placements)."""

    __slots__ = ("board", "known")

    def __init__(self, board):
        self.board = board
        # (strip, cells, flip) -> (points, rat changes per seat, cells read), on ``board``
        self.known = {}

    def effect(self, after, changed, strip, cells, flip):
        """``_effect(after.grid, after.rats, strip, ...)`` for the window ``cells``, where
        ``after`` is ``board`` with the cells ``changed`` (a set) laid over."""
        key = (strip, cells, flip)
        known = self.known.get(key)
        if known is None:
            board = self.board
            gained, rats, groups = _effect_and_groups(board.grid, board.rats, cells, strip, flip)
            delta = (rats[0] - board.rats[0], rats[1] - board.rats[1])
            known = self.known[key] = (gained, delta, _cells_read(cells, groups))
        gained, delta, read = known
        if not read.isdisjoint(changed):
            gained, rats, _ = _effect_and_groups(after.grid, after.rats, cells, strip, flip)
            return gained, rats
        return gained, (after.rats[0] + delta[0], after.rats[1] + delta[1])


def _same_group_before(grid, group, spice):
    """Whether ``group`` was exactly a group of ``spice`` on ``grid`` (R20(c))."""
    for cell in group:
        entry = grid.get(cell)
        if entry is None or entry[2] != spice:
            return False
    # Every cell showed the spice: it was one group unless it grew beyond these cells.
    for cx, cy in group:
        for dx, dy in _NEIGHBOURS:
            near = (cx + dx, cy + dy)
            if near not in group:
                entry = grid.get(near)
                if entry is not None and entry[2] == spice:
                    return False
    # All cells showed the spice and nothing around did: connected as before, since the
    # group is connected in the new layer through these very cells.
    return True


def _distance(action):
    x, y = action["x"], action["y"]
    mx, my = (x + 1, y) if action["orientation"] == "h" else (x, y + 1)
    return abs(mx) + abs(my)


def _parts(action):
    return action["strip"], action["x"], action["y"], action["orientation"], action["flip"]


# --- careful -------------------------------------------------------------------------------


def _careful(table):
    board, seat = table.board, table.seat
    other = 1 - seat
    scored = []
    for index, action in enumerate(table.legal):
        gained, rats = _effect(board.grid, board.rats, *_parts(action))
        net = gained[seat] - gained[other]
        scored.append(((-net, rats[seat], _distance(action), index), action, rats[seat]))
    scored.sort(key=lambda entry: entry[0])
    safe: Iterable[tuple]
    if len(table.hand) == 1:
        safe = [entry for entry in scored if entry[2] < RAT_LIMIT]
    else:
        safe = (entry for entry in scored if _completes_safely(table, entry[1], entry[2]))
    choice = next(iter(safe), None)
    if choice is None:  # every way ends the turn with 3 rats: the fewest, then as above
        choice = min(scored, key=lambda entry: (entry[2], entry[0]))
    return choice[1]


def _completes_safely(table, action, rats_after):
    """Whether, after ``action`` (the first of two strips), the other strip can be laid so
    that fewer than 3 of the mover's rats show at the end of the turn (R22)."""
    seat = table.seat
    (rest,) = [strip for strip in table.hand if strip != action["strip"]]
    adds = sum(1 for symbol in STRIPS[rest] if RAT_SEAT.get(symbol) == seat)
    if rats_after + adds < RAT_LIMIT:
        return True  # laying it anywhere adds at most its own rats
    board, _ = place(table.board, *_parts(action))
    # Only a placement that covers own rats can end below the limit: try those alone.
    for x, y, orientation in _windows_covering(board, seat):
        for flip in (False, True):
            _, rats = _effect(board.grid, board.rats, rest, x, y, orientation, flip)
            if rats[seat] < RAT_LIMIT:
                return True
    return False


def _windows_covering(board, seat):
    """The legal windows (R10-R12; raised, so R13 holds) holding a visible rat of ``seat``."""
    found = set()
    for (cx, cy), (_, _, symbol) in board.grid.items():
        if RAT_SEAT.get(symbol) != seat:
            continue
        for k in range(3):
            for x, y, orientation in ((cx - k, cy, "h"), (cx, cy - k, "v")):
                if window_error(board, x, y, orientation) is None:
                    found.add((x, y, orientation))
    return sorted(found)


# --- strong --------------------------------------------------------------------------------


def _quick(seat, gained, rats):
    """strong's cheap value of one placement: net points, and own against opponent rats."""
    return (
        gained[seat]
        - gained[1 - seat]
        - QUICK_OWN_RAT * rats[seat]
        + QUICK_OPPONENT_RAT * rats[1 - seat]
    )


def _strong(table):
    board, seat, legal = table.board, table.seat, table.legal
    first = []
    for index, action in enumerate(legal):
        gained, rats = _effect(board.grid, board.rats, *_parts(action))
        first.append((_quick(seat, gained, rats), -_distance(action), -index, action, gained))
    first.sort(key=lambda entry: entry[:3], reverse=True)
    # (cheap value, tie-breaks, first action, board after the plan, net points)
    plans: list[tuple] = []
    if len(table.hand) == 1:
        for value, distance, index, action, gained in first[:STRONG_FULL]:
            net = gained[seat] - gained[1 - seat]
            plans.append((value, distance, index, action, (action,), net))
    else:
        # The best first placements of each strip (so both orders are planned), each
        # followed by every placement of the other strip.
        per_strip: dict[int, list[tuple]] = {strip: [] for strip in table.hand}
        for entry in first:
            bucket = per_strip[entry[3]["strip"]]
            if len(bucket) < STRONG_FIRST // 2:
                bucket.append(entry)
        seconds = _SecondStrips(board)
        for bucket in per_strip.values():
            for _, distance, index, action, gained in bucket:
                net_first = gained[seat] - gained[1 - seat]
                after, _ = place(board, *_parts(action))
                changed = set(window(action["x"], action["y"], action["orientation"]))
                (rest,) = [strip for strip in table.hand if strip != action["strip"]]
                for x, y, orientation in legal_windows(after):
                    cells = window(x, y, orientation)
                    for flip in (False, True):
                        more, rats = seconds.effect(after, changed, rest, cells, flip)
                        value = net_first + _quick(seat, more, rats)
                        if rats[seat] >= RAT_LIMIT:
                            value += LOSS
                        second = (rest, x, y, orientation, flip)
                        net = net_first + more[seat] - more[1 - seat]
                        plans.append((value, distance, index, action, (action, second), net))
    plans.sort(key=lambda plan: plan[:3], reverse=True)
    best = None
    for _, distance, index, action, steps, net in plans[:STRONG_FULL]:
        final = board
        for step in steps:
            final, _ = place(final, *(_parts(step) if isinstance(step, dict) else step))
        key = (net + _position(final, seat, table), distance, index)
        if best is None or key > best[0]:
            best = (key, action)
    assert best is not None  # legal is never empty here, so neither is plans
    return best[1]


def _position(board, seat, table):
    """strong's value of the table a turn leaves, for ``seat``, in points."""
    other = 1 - seat
    own_rats = board.rats[seat]
    if own_rats >= RAT_LIMIT:
        return LOSS - own_rats  # R22: this turn loses; the fewest rats if it must
    standing = [0, 0]
    for owner, _, _, value in final_scoring(board):
        standing[owner] += value
    # Groups on the table score again at the end (R25) if they survive: worth more the
    # later it is.
    progress = (table.placed + len(table.hand)) / _TOTAL_STRIPS
    value = progress * (standing[seat] - standing[other])
    if table.last_turn:
        return value  # nothing more is laid after this turn (or only the opponent's last)
    stuck = [0, 0]
    for cell, (_, _, symbol) in board.grid.items():
        owner = RAT_SEAT.get(symbol)
        if owner is not None and is_stuck(board, cell):
            stuck[owner] += 1
    return (
        value
        - _weight(OWN_RATS, own_rats)
        - _weight(OWN_STUCK, stuck[seat])
        + _weight(OPPONENT_RATS, board.rats[other])
        + _weight(OPPONENT_STUCK, stuck[other])
    )


def _weight(table, count):
    return table[min(count, len(table) - 1)]


__all__ = ["LEVELS", "STAND_IN_LEVEL", "choose_action"]
