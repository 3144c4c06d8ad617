"""What a seat or a spectator sees (R31, R33): everything but the draw order."""

from .board import TABLE_MAX, TABLE_MIN, laid_fields
from .engine import event_dict, legal_actions, result, scores
from .state import placement_dict
from .strips import COLOURS, STRIPS


def _strip(strip):
    return {"id": strip, "fields": list(STRIPS[strip])}


def placement_view(placement):
    """A placement tuple as the view lists it: its dict, with the strip's ``fields`` in the
    order they lie (R7: reversed when flipped)."""
    laid = placement_dict(placement)
    laid["fields"] = list(laid_fields(laid["strip"], laid["flip"]))
    return laid


def visible_cells(board):
    """The view's ``cells``: each occupied cell's height, top strip and visible symbol,
    by y, then x."""
    return [
        {"x": x, "y": y, "height": height, "strip": strip, "symbol": symbol}
        for (x, y), (height, strip, symbol) in sorted(
            board.grid.items(), key=lambda item: (item[0][1], item[0][0])
        )
    ]


def view(state, seat):
    """JSON-ready, fresh objects every call; the same for everyone apart from ``seat`` and
    ``legal_actions``. The pile appears only as its size and as ``unseen`` sorted by id."""
    return {
        "game": "rattenscharf",
        "players": 2,
        "seat": seat,
        "status": "finished" if state.finished else "active",
        "turn": state.turn,
        "current_seat": state.current,
        "colours": list(COLOURS),
        "scores": scores(state),
        "visible_rats": list(state.board.rats),
        "hand": [_strip(s) for s in state.hand],
        "draw_pile": len(state.pile),
        "unseen": [_strip(s) for s in sorted(state.pile)],
        "table": {"min": TABLE_MIN, "max": TABLE_MAX},
        "placements": [placement_view(p) for p in state.placements],
        "cells": visible_cells(state.board),
        "last_scoring": [event_dict(e) for e in state.last_scoring],
        "legal_actions": [] if seat is None else legal_actions(state, seat),
        "result": result(state),
    }
