"""The Rattenscharf turn machine: setup, legal actions and apply (R9-R18, R20-R30)."""

import hashlib
import secrets

from games.kinds.piratz.rules.shuffle import KEY_BYTES, keyed_order

from .board import ORIENTATIONS, final_scoring, legal_windows, place, placement_scoring, window
from .board import window_error as _window_error
from .errors import IllegalAction
from .state import START_PLACEMENT, State, replay
from .strips import COLOURS, STRIP_IDS

ACTION_KEYS = frozenset(("action", "strip", "x", "y", "orientation", "flip"))
RAT_LIMIT = 3  # R22


def derive_key(seed):
    """The 32-byte shuffle key: from the OS's cryptographic RNG for None, else from the int.

    The label keeps a Rattenscharf seed independent from the same Piratz seed.
    """
    if seed is None:
        return secrets.token_bytes(KEY_BYTES)
    if type(seed) is not int:
        raise ValueError(f"seed must be an int or None, not {seed!r}")
    return hashlib.sha256(f"rattenscharf-seed:{seed}".encode()).digest()


def deal(key):
    """The draw pile (top first) that ``key`` deals (R16): the one derivation of a deal."""
    return keyed_order(key, "rattenscharf-pile", 0, STRIP_IDS)


def new_game(players=2, seed=None, order=None, key=None):
    """A fresh game (R16, R17, R27): the start strip laid, turn 1 for seat 0 with 1 strip.

    ``players`` must be 2. ``order`` (a permutation of the strip ids, first drawn first)
    fixes the whole pile and overrides ``seed`` and ``key``; else ``key`` (32 bytes, e.g.
    from a checkable shuffle) or ``seed`` (int: reproducible; None: cryptographic RNG)
    decides the shuffle. ValueError for anything else.
    """
    if players != 2 or type(players) is not int:
        raise ValueError("Rattenscharf is for exactly 2 players")
    if order is not None:
        pile = tuple(order)
        if any(type(s) is not int for s in pile) or sorted(pile) != list(STRIP_IDS):
            raise ValueError("order must be a permutation of the strip ids")
    else:
        if key is None:
            key = derive_key(seed)
        elif seed is not None:
            raise ValueError("give a seed or a key, not both")
        elif type(key) is not bytes or len(key) != KEY_BYTES:
            raise ValueError(f"key must be {KEY_BYTES} bytes")
        pile = deal(key)
    placements = (START_PLACEMENT,)
    return State(
        turn=1,
        current=0,
        finished=False,
        reason=None,
        rat_loser=None,
        pile=pile[1:],
        hand=pile[:1],
        placements=placements,
        points=(0, 0),
        last_scoring=(),
        board=replay(placements),
    )


def current_seat(state):
    """The seat to move, or None once the game is over."""
    return state.current


def is_finished(state):
    return state.finished


def round_number(state):
    """The turn number (R18's turns 1..22; the last turn played once finished)."""
    return state.turn


def _parse(action):
    """Return ``(strip, x, y, orientation, flip)`` or raise IllegalAction("malformed")."""
    if (
        type(action) is not dict
        or action.keys() != ACTION_KEYS
        or action["action"] != "place"
        or type(action["strip"]) is not int
        or type(action["x"]) is not int
        or type(action["y"]) is not int
        or action["orientation"] not in ORIENTATIONS
        or type(action["orientation"]) is not str
        or type(action["flip"]) is not bool
    ):
        raise IllegalAction(
            "malformed",
            "an action is {action: 'place', strip: int, x: int, y: int, "
            "orientation: 'h' | 'v', flip: bool}",
        )
    return action["strip"], action["x"], action["y"], action["orientation"], action["flip"]


def check(state, seat, action):
    """Raise IllegalAction with the first R30 code that applies; return the parsed action."""
    if state.finished:
        raise IllegalAction("game_over", "the game is over")
    if seat != state.current or type(seat) is not int:
        raise IllegalAction("not_your_turn", f"it is seat {state.current}'s move")
    strip, x, y, orientation, flip = _parse(action)
    if strip not in state.hand:
        raise IllegalAction("not_in_hand", f"strip {strip} is not in the hand")
    code = _window_error(state.board, x, y, orientation)
    if code is not None:
        cells = ", ".join(str(c) for c in window(x, y, orientation))
        raise IllegalAction(code, f"strip {strip} cannot lie on {cells}: {code}")
    return strip, x, y, orientation, flip


def apply(state, seat, action):
    """The state after ``seat`` plays ``action``; ``state`` is never changed (R17-R24)."""
    strip, x, y, orientation, flip = check(state, seat, action)
    board, level = place(state.board, strip, x, y, orientation, flip)
    events = placement_scoring(state.board, board, window(x, y, orientation))
    points = list(state.points)
    for owner, _, _, value in events:
        points[owner] += value  # R20: the spice's owner scores, whoever laid it
    hand = tuple(s for s in state.hand if s != strip)
    placements = state.placements + ((strip, x, y, orientation, flip, level, seat, state.turn),)
    turn, current, finished, reason, rat_loser, pile = (
        state.turn,
        seat,
        False,
        None,
        None,
        state.pile,
    )
    if not hand:  # the turn ends: rat check (R22, R23), then the end (R24) or R17
        if board.rats[seat] >= RAT_LIMIT:
            finished, reason, rat_loser, current = True, "rats", seat, None
        elif not pile:
            finished, reason, current = True, "complete", None
        else:
            draw = min(2, len(pile))
            turn, current, hand, pile = turn + 1, 1 - seat, pile[:draw], pile[draw:]
    return State(
        turn=turn,
        current=current,
        finished=finished,
        reason=reason,
        rat_loser=rat_loser,
        pile=pile,
        hand=hand,
        placements=placements,
        points=tuple(points),
        last_scoring=events,
        board=board,
    )


def legal_actions(state, seat):
    """Every legal action of ``seat`` in R29's canonical order; [] if it is not its move."""
    if state.finished or seat != state.current or type(seat) is not int:
        return []
    windows = legal_windows(state.board)
    return [
        {"action": "place", "strip": strip, "x": x, "y": y, "orientation": o, "flip": flip}
        for strip in sorted(state.hand)
        for x, y, o in windows
        for flip in (False, True)
    ]


def result(state):
    """R32's result once finished, else None."""
    if not state.finished:
        return None
    final = final_scoring(state.board) if state.reason == "complete" else ()
    final_points = [0, 0]
    for owner, _, _, value in final:
        final_points[owner] += value
    totals = [state.points[s] + final_points[s] for s in (0, 1)]
    if state.reason == "rats":
        winners = [1 - state.rat_loser]  # R23: whatever the scores
    else:
        best = max(totals)
        winners = [s for s in (0, 1) if totals[s] == best]  # R26: a tie shares the win
    return {
        "reason": state.reason,
        "rat_loser": state.rat_loser,
        "final_scoring": [event_dict(e) for e in final],
        "players": [
            {
                "seat": s,
                "colour": COLOURS[s],
                "placement_points": state.points[s],
                "final_points": final_points[s],
                "score": totals[s],
                "visible_rats": state.board.rats[s],
            }
            for s in (0, 1)
        ],
        "winners": winners,
    }


def standing_result(state):
    """R32's result shape for the table as it stands, for a game a resignation ends (R37):
    ``reason`` "resigned", no final scoring (R25 needs every strip placed), each player's
    placement points so far; ``winners`` the higher score (the service names the winner)."""
    totals = list(state.points)
    best = max(totals)
    return {
        "reason": "resigned",
        "rat_loser": None,
        "final_scoring": [],
        "players": [
            {
                "seat": s,
                "colour": COLOURS[s],
                "placement_points": state.points[s],
                "final_points": 0,
                "score": totals[s],
                "visible_rats": state.board.rats[s],
            }
            for s in (0, 1)
        ],
        "winners": [s for s in (0, 1) if totals[s] == best],
    }


def event_dict(event):
    seat, spice, cells, points = event
    return {"seat": seat, "spice": spice, "cells": [list(c) for c in cells], "points": points}


def scores(state):
    """Each seat's points so far, final scoring included once finished (R31)."""
    outcome = result(state)
    if outcome is None:
        return list(state.points)
    return [p["score"] for p in outcome["players"]]
