"""The Rattenscharf replay: the board after each placement (R20, R25), from the public log."""

from django.utils.translation import gettext as _

from games.kinds.rattenscharf import words
from games.kinds.rattenscharf.rules.engine import event_dict
from games.kinds.rattenscharf.rules.state import START_PLACEMENT, start_board
from games.kinds.rattenscharf.rules.view import placement_view, visible_cells
from games.kinds.rattenscharf.words import walk
from games.movelog import is_resignation
from games.replay import ReplayRequest, chosen_step


def rattenscharf_frames(entries: list[dict], now: dict) -> list[dict]:
    """The board before the first placement and after each one of ``entries`` (the public
    log, R33: every placement is public), oldest first, laid with the words' ``walk`` (the
    engine's pure ``board.lay``), never from the secret state.

    Frame ``n`` is view-shaped (R31) for the board include: ``placements``, ``cells``,
    ``last_scoring`` (that placement's R20 events), ``table`` (from ``now``), plus
    ``scores`` (placement points so far), ``visible_rats``, ``number``, ``entry``,
    ``turn`` and ``next_seat``. A resignation (R37) is a step of its own: the board as it
    was, ``resigned`` True.
    """
    placements = [placement_view(START_PLACEMENT)]
    scores = [0, 0]

    def frame(board, number, entry, events, next_seat, turn):
        return {
            "number": number,
            "entry": entry,
            "next_seat": next_seat,
            "turn": turn,
            "table": now["table"],
            "placements": list(placements),
            "cells": visible_cells(board),
            "last_scoring": [event_dict(e) for e in events],
            "scores": list(scores),
            "visible_rats": list(board.rats),
        }

    start = start_board()
    laid = {
        entry["number"]: (level, events, after)
        for entry, level, events, after in walk(start, entries)
    }
    # A step per placement and per resignation (R37: the board does not change, but the
    # game ends there); other entries (a reduced one) are no step.
    steps = [e for e in entries if e["number"] in laid or is_resignation(e["action"])]
    frames = [frame(start, 0, None, (), steps[0]["seat"] if steps else None, 1)]
    turn, last_seat, board = 1, None, start
    for index, entry in enumerate(steps):
        action, seat = entry["action"], entry["seat"]
        if last_seat is not None and seat != last_seat:
            turn += 1
        last_seat = seat
        following = steps[index + 1]["seat"] if index + 1 < len(steps) else None
        if entry["number"] not in laid:  # a resignation
            frames.append(
                {**frame(board, entry["number"], entry, (), following, turn), "resigned": True}
            )
            continue
        level, events, board = laid[entry["number"]]
        for owner, _spice, _cells, points in events:
            scores[owner] += points
        placements.append(
            placement_view(
                (
                    action["strip"],
                    action["x"],
                    action["y"],
                    action["orientation"],
                    action["flip"],
                    level,
                    seat,
                    turn,
                )
            )
        )
        frames.append(frame(board, entry["number"], entry, events, following, turn))
    return frames


def replay_page(replay: ReplayRequest) -> dict:
    """The context of the template ``games/rattenscharf/replay.html``: the frame of ``?step=``,
    its placement in words, the scores then, and at the last step of a finished game the
    final scoring explained (R25) with the result (R32)."""
    entries, now, names = replay.entries, replay.now, replay.names
    frames = rattenscharf_frames(entries, now)
    last = len(frames) - 1
    step = chosen_step(replay.step_param, last)
    frame = frames[step]
    context = {
        "step": step,
        "last": last,
        "frame": frame,
        "move": None
        if frame["entry"] is None
        else words.describe_entry(frame["entry"], names, history=entries[: step - 1]),
        "scores": [
            {
                "name": names.subject(seat),
                "colour": words.seat_colour(seat),
                "score": frame["scores"][seat],
                "rats": frame["visible_rats"][seat],
            }
            for seat in (0, 1)
        ],
        "next_name": (
            None if frame["next_seat"] is None else names.in_sentence(frame["next_seat"])
        ),
        "scoring": [
            _("%(event)s: %(cells)s")
            % {
                "event": words.event_text(words.as_event(event)),
                "cells": ", ".join(f"({x}, {y})" for x, y in event["cells"]),
            }
            for event in frame["last_scoring"]
        ],
    }
    if step == last and now.get("result"):
        context["result"] = words.describe_result(now["result"], names)
        context["final_frame"] = {**frame, "last_scoring": now["result"]["final_scoring"]}
    return context
