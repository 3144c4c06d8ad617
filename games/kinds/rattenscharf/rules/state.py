"""The Rattenscharf game state as an immutable value, and its JSON form (dump/load)."""

from dataclasses import dataclass, field

from .board import ORIENTATIONS, Board, empty_board, place, window_error
from .strips import STRIP_IDS

DUMP_FORMAT = 1
REASONS = ("complete", "rats")


@dataclass(frozen=True)
class State:
    """One moment of a game, including its one secret, the draw order (R33).

    - ``turn`` (1-based; the last turn played once finished), ``current`` seat (None once
      finished), ``finished``, ``reason`` (None, "complete" or "rats"), ``rat_loser``;
    - ``pile``: unrevealed strip ids, top first; ``hand``: revealed, not yet laid, in
      draw order;
    - ``placements``: ``(strip, x, y, orientation, flip, level, seat, turn)`` oldest
      first, the start strip first with seat None and turn 0;
    - ``points``: placement points per seat (R20), without final scoring;
    - ``last_scoring``: the events of the most recent placement (see board.py).

    ``board`` is the cell index derived from ``placements``: it is not compared, and
    ``apply`` hands the next state its updated copy so nothing is rebuilt per move.
    """

    turn: int
    current: int | None
    finished: bool
    reason: str | None
    rat_loser: int | None
    pile: tuple
    hand: tuple
    placements: tuple
    points: tuple
    last_scoring: tuple
    # None only until __post_init__ derives it from ``placements``.
    board: Board = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    def __post_init__(self):
        if self.board is None:
            object.__setattr__(self, "board", replay(self.placements))


START_PLACEMENT = (0, -1, 0, "h", False, 1, None, 0)  # R9
# The keys of a placement's JSON form, in the order of its tuple (see ``State``).
PLACEMENT_KEYS = ("strip", "x", "y", "orientation", "flip", "level", "seat", "turn")


def placement_dict(placement):
    """A placement tuple as its JSON-ready dict (``dump``'s; ``view`` adds the fields)."""
    return dict(zip(PLACEMENT_KEYS, placement, strict=True))


def start_board():
    """The board before the first placement: the start strip alone (R9)."""
    return replay((START_PLACEMENT,))


def board_of(data):
    """The board of a ``view`` (R31) or ``dump``, rebuilt from its ``placements``: how
    pages, words and bots see the table without a ``State`` (ValueError as ``replay``)."""
    return replay(tuple(tuple(p[key] for key in PLACEMENT_KEYS) for p in data["placements"]))


def replay(placements):
    """Rebuild the board from ``placements``; ValueError if one is illegal or misnumbered."""
    board = empty_board()
    if not placements or tuple(placements[0]) != START_PLACEMENT:
        raise ValueError("the first placement is the start strip at (-1, 0) h (R9)")
    for number, (strip, x, y, orientation, flip, level, _seat, _turn) in enumerate(placements):
        if number and window_error(board, x, y, orientation) is not None:
            raise ValueError(f"placement {number} of strip {strip} is illegal")
        board, laid = place(board, strip, x, y, orientation, flip)
        if laid != level:
            raise ValueError(f"placement {number} has level {laid}, not {level}")
    return board


def dump(state):
    """The full state, secrets included, as JSON-ready data; ``load(dump(s)) == s``."""
    return {
        "game": "rattenscharf",
        "format": DUMP_FORMAT,
        "turn": state.turn,
        "current_seat": state.current,
        "finished": state.finished,
        "reason": state.reason,
        "rat_loser": state.rat_loser,
        "pile": list(state.pile),
        "hand": list(state.hand),
        "placements": [placement_dict(p) for p in state.placements],
        "points": list(state.points),
        "last_scoring": [
            {"seat": seat, "spice": spice, "cells": [list(c) for c in cells], "points": points}
            for seat, spice, cells, points in state.last_scoring
        ],
    }


def _int(value, name):
    if type(value) is not int:
        raise ValueError(f"{name} must be an int")
    return value


def load(data):
    """The State that ``data`` (from ``dump``) describes; ValueError if it is inconsistent.

    Checks that every strip is in exactly one place (pile, hand or table) and replays the
    placements (each legal, with its recorded level).
    """
    if data.get("game") != "rattenscharf" or data.get("format") != DUMP_FORMAT:
        raise ValueError("not a Rattenscharf dump of this format")
    placements = tuple(
        (
            _int(p["strip"], "strip"),
            _int(p["x"], "x"),
            _int(p["y"], "y"),
            p["orientation"],
            bool(p["flip"]),
            _int(p["level"], "level"),
            p["seat"],
            _int(p["turn"], "turn"),
        )
        for p in data["placements"]
    )
    if any(p[3] not in ORIENTATIONS for p in placements):
        raise ValueError("orientation is h or v")
    pile = tuple(_int(s, "pile strip") for s in data["pile"])
    hand = tuple(_int(s, "hand strip") for s in data["hand"])
    laid = [p[0] for p in placements[1:]]
    if sorted(pile + hand + tuple(laid)) != list(STRIP_IDS):
        raise ValueError("every strip must be in exactly one place")
    finished = bool(data["finished"])
    reason = data["reason"]
    if finished != (reason in REASONS) or (reason is None) == finished:
        raise ValueError("reason is complete or rats exactly when finished")
    current = data["current_seat"]
    if (current is None) != finished or (current is not None and current not in (0, 1)):
        raise ValueError("current_seat is 0 or 1 while active, null once finished")
    return State(
        turn=_int(data["turn"], "turn"),
        current=current,
        finished=finished,
        reason=reason,
        rat_loser=data["rat_loser"],
        pile=pile,
        hand=hand,
        placements=placements,
        points=tuple(_int(p, "points") for p in data["points"]),
        last_scoring=tuple(
            (e["seat"], e["spice"], tuple(tuple(c) for c in e["cells"]), e["points"])
            for e in data["last_scoring"]
        ),
    )
