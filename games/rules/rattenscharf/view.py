"""What a seat or a spectator sees (R31, R33): everything but the draw order."""

from .board import TABLE_MAX, TABLE_MIN
from .engine import event_dict, legal_actions, result, scores
from .strips import COLOURS, STRIPS


def _strip(strip):
    return {"id": strip, "fields": list(STRIPS[strip])}


def view(state, seat):
    """JSON-ready, fresh objects every call; the same for everyone apart from ``seat`` and
    ``legal_actions``. The pile appears only as its size and as ``unseen`` sorted by id."""
    grid = state.board.grid
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
        "placements": [
            {
                "strip": strip,
                "x": x,
                "y": y,
                "orientation": orientation,
                "flip": flip,
                "level": level,
                "fields": list(STRIPS[strip][::-1] if flip else STRIPS[strip]),
                "seat": owner,
                "turn": turn,
            }
            for strip, x, y, orientation, flip, level, owner, turn in state.placements
        ],
        "cells": [
            {"x": x, "y": y, "height": height, "strip": strip, "symbol": symbol}
            for (x, y), (height, strip, symbol) in sorted(
                grid.items(), key=lambda item: (item[0][1], item[0][0])
            )
        ],
        "last_scoring": [event_dict(e) for e in state.last_scoring],
        "legal_actions": [] if seat is None else legal_actions(state, seat),
        "result": result(state),
    }
