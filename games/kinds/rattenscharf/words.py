"""Rattenscharf tables and moves in words, for the emails and pages players read.

Works on public information only (R33): the engine's ``view`` and public log entries,
whose placements are public; the board at any moment is rebuilt from them with the
engine's pure helpers (``board.lay``, ``state.board_of``), never from the
secret state, so nothing here can tell the draw order. The interface is
``games.describe``'s.
"""

import functools

from django.utils.translation import get_language, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext as _

from games.describe.common import (
    Names,
    automatic_note,
    is_resignation,
    resigned_ending,
    resigned_sentence,
)
from games.kinds.rattenscharf.rules import board as geometry
from games.kinds.rattenscharf.rules.state import board_of, start_board
from games.kinds.rattenscharf.rules.strips import COLOURS, STRIPS

ABANDONED = pgettext_lazy(
    "why a game ended", "both players missed a whole turn back to back (rule R36)"
)
NEEDS_HISTORY = True  # a placement's level and scoring depend on the board before it

COLOUR_NAMES = {
    "red": pgettext_lazy("Rattenscharf colour", "red"),
    "green": pgettext_lazy("Rattenscharf colour", "green"),
}
SPICE_NAMES = {
    "chili": pgettext_lazy("spice", "chili"),
    "paprika": pgettext_lazy("spice", "paprika"),
    "saffron": pgettext_lazy("spice", "saffron"),
    "cinnamon": pgettext_lazy("spice", "cinnamon"),
    "jalapeno": pgettext_lazy("spice", "jalapeno"),
    "basil": pgettext_lazy("spice", "basil"),
    "cardamom": pgettext_lazy("spice", "cardamom"),
    "wasabi": pgettext_lazy("spice", "wasabi"),
    "rat": pgettext_lazy("on a strip", "rat"),
}
# The diagram codes of the worked examples in docs/rules/rattenscharf.md (rCh, gBa, rRt, ---, Sta).
_CODE_NAMES = {"empty": "---", "start": "Sta"}


def colour_name(colour: str) -> str:
    return str(COLOUR_NAMES.get(colour, colour))


def seat_colour(seat: int) -> str:
    """Seat 0 plays red, seat 1 green (R1), in the active language."""
    return colour_name(COLOURS[seat])


def symbol_name(symbol: str) -> str:
    """A field in words: ``"red chili"``, ``"green rat"``, ``"empty"``, ``"start field"``."""
    # A late table names a few hundred fields (its board, each legal placement's strip),
    # three lookups in the catalogue each: the twenty symbols are translated once per
    # language (a catalogue does not change while the process runs).
    return _symbol_name_in(symbol, get_language())


@functools.cache
def _symbol_name_in(symbol: str, language: str | None) -> str:
    if symbol == "empty":
        return pgettext("strip field", "empty")
    if symbol == "start":
        return pgettext("strip field", "start field")
    colour, _sep, name = symbol.partition(":")
    return pgettext("colour and spice", "%(colour)s %(spice)s") % {
        "colour": colour_name(colour),
        "spice": str(SPICE_NAMES.get(name, name)),
    }


def symbol_code(symbol: str) -> str:
    """The three-letter code of the rules' diagrams: ``rCh``, ``gRt``, ``---``, ``Sta``."""
    if symbol in _CODE_NAMES:
        return _CODE_NAMES[symbol]
    colour, _sep, name = symbol.partition(":")
    name = "rt" if name == "rat" else name
    return colour[:1] + name[:1].upper() + name[1:2]


def field_names(fields) -> str:
    """A strip's fields in words, in the order given: ``"red chili, green basil, empty"``."""
    return ", ".join(symbol_name(f) for f in fields)


def describe_strip(strip: int, fields: list[str] | None = None) -> str:
    """``"strip 17 (red chili, green basil, red saffron)"`` (fields as printed, or as given)."""
    fields = list(STRIPS[strip]) if fields is None else fields
    return _("strip %(id)d (%(fields)s)") % {"id": strip, "fields": field_names(fields)}


def _laid_fields(action: dict) -> list[str]:
    return list(geometry.laid_fields(action["strip"], action["flip"]))


def event_text(event) -> str:
    """One R20/R25 scoring event: ``"red scored 2 for paprika"``."""
    seat, spice, _cells, points = event
    name = spice.partition(":")[2]
    return ngettext(
        "%(colour)s scored %(points)d for %(spice)s",
        "%(colour)s scored %(points)d for %(spice)s",
        points,
    ) % {"colour": seat_colour(seat), "points": points, "spice": str(SPICE_NAMES.get(name, name))}


def as_event(event: dict) -> tuple:
    return (event["seat"], event["spice"], tuple(map(tuple, event["cells"])), event["points"])


def walk(board, entries):
    """Each place entry of ``entries`` (public log entries, oldest first) laid on
    ``board`` in turn: ``(entry, level, R20 events, board after)``; other entries are
    skipped. How the words and the replay know a placement's level and scoring."""
    for entry in entries:
        action = entry["action"]
        if action.get("action") != "place" or "strip" not in action:
            continue
        after, level, events = geometry.lay(
            board, action["strip"], action["x"], action["y"], action["orientation"], action["flip"]
        )
        yield entry, level, events, after
        board = after


def _sentence(entry: dict, level: int, events, names: Names) -> str:
    own = entry["seat"] == names.reader_seat
    action = entry["action"]
    values = {
        "name": names.name(entry["seat"]),
        "strip": describe_strip(action["strip"], _laid_fields(action)),
        "x": action["x"],
        "y": action["y"],
        "level": level,
    }
    if action["orientation"] == "h":
        values["direction"] = _("horizontal, flipped") if action["flip"] else _("horizontal")
    else:
        values["direction"] = _("vertical, flipped") if action["flip"] else _("vertical")
    text = (
        _("You placed %(strip)s at (%(x)d, %(y)d), %(direction)s, on level %(level)d")
        if own
        else _("%(name)s placed %(strip)s at (%(x)d, %(y)d), %(direction)s, on level %(level)d")
    ) % values
    if events:
        text += ": " + ", ".join(event_text(e) for e in events) + "."
    else:
        text += ": " + _("nothing scored.")
    revealed = entry.get("revealed")
    if revealed:
        drawer = 1 - entry["seat"]
        drawn = "; ".join(describe_strip(s["id"], s["fields"]) for s in revealed)
        if drawer == names.reader_seat:
            text += " " + _("You drew %(strips)s.") % {"strips": drawn}
        else:
            text += " " + _("%(name)s drew %(strips)s.") % {
                "name": names.name(drawer),
                "strips": drawn,
            }
    if entry.get("automatic"):
        text += " " + automatic_note(entry, _("(Played automatically by a moderator, rule R34.)"))
    return text


def describe_entry(
    entry: dict, names: Names, rules=None, *, history=(), rat_alert: bool = False
) -> str:
    """One public log entry as a sentence: the strip, where and how it lies, what it scored
    and, for a move that ended the turn, the strips the next player drew (R33).

    ``history`` is every earlier entry (oldest first), for the board the strip was laid on.
    """
    lines = describe_moves([*history, entry], names, since=entry["number"] - 1)
    return lines[-1] if lines else _("%(name)s moved.") % {"name": names.name(entry["seat"])}


def describe_moves(
    entries: list[dict],
    names: Names,
    rules=None,
    *,
    since: int = 0,
    rounds: dict[int, int] | None = None,
    current_round: int | None = None,
) -> list[str]:
    """Sentences for the entries after move ``since`` (``entries``: the whole public log,
    oldest first, so each strip's level and scoring are known)."""
    laid = {
        entry["number"]: _sentence(entry, level, events, names)
        for entry, level, events, _after in walk(start_board(), entries)
        if entry["number"] > since
    }
    return [
        resigned_sentence(entry, names)
        if is_resignation(entry["action"])
        else laid[entry["number"]]
        for entry in entries
        if entry["number"] > since and (entry["number"] in laid or is_resignation(entry["action"]))
    ]


def describe_auto_moved(
    entries: list[dict], table_before: dict | None, names: Names, rules=None, *, hidden: bool
) -> dict:
    """What the automatic placements of one timed-out turn did (R34): ``moves`` (a
    sentence each) and in ``details`` what they scored, per player."""
    board = start_board() if table_before is None else board_of(table_before)
    moves, points = [], [0, 0]
    for entry, level, events, _after in walk(board, entries):
        moves.append(_sentence(entry, level, events, names))
        for seat, _spice, _cells, value in events:
            points[seat] += value
    scored = "; ".join(
        _("%(name)s (%(colour)s): %(points)d")
        % {"name": names.subject(seat), "colour": seat_colour(seat), "points": points[seat]}
        for seat in (0, 1)
    )
    return {
        "moves": moves,
        "details": [_("Points from these moves: %(points)s.") % {"points": scored}],
    }


# --- The table and the result ------------------------------------------------------------


def total_turns(view: dict) -> int:
    """How many turns the game has (R18: 1 strip on turn 1, then 2 a turn)."""
    strips = len(view["placements"]) - 1 + len(view["hand"]) + view["draw_pile"]
    return 1 + strips // 2  # 1 + ceil((strips - 1) / 2)


def board_grid(cells: list[dict]) -> dict:
    """The visible layer as rows for a diagram: ``{"xs": [...], "rows": [{"y", "cells":
    [{"code", "height", "colour", "name"} | None]}]}`` over the occupied cells' box."""
    if not cells:
        return {"xs": [], "rows": []}
    by_cell = {(c["x"], c["y"]): c for c in cells}
    xs = range(min(c["x"] for c in cells), max(c["x"] for c in cells) + 1)
    ys = range(min(c["y"] for c in cells), max(c["y"] for c in cells) + 1)
    rows = []
    for y in ys:
        row: list[dict | None] = []
        for x in xs:
            cell = by_cell.get((x, y))
            if cell is None:
                row.append(None)
                continue
            symbol = cell["symbol"]
            colour = symbol.partition(":")[0] if ":" in symbol else ""
            row.append(
                {
                    "code": symbol_code(symbol),
                    "height": cell["height"],
                    "colour": colour,
                    "rat": symbol.endswith(":rat"),
                    "name": symbol_name(symbol),
                }
            )
        rows.append({"y": y, "cells": row})
    # corner: the header over the row numbers (y) beside the column numbers (x).
    return {"xs": list(xs), "rows": rows, "corner": "y\\x"}


def board_text(cells: list[dict]) -> list[str]:
    """The visible layer as the rules' diagrams draw it: code and height per cell, ``.``
    for bare table, ``y\\x`` header."""
    grid = board_grid(cells)
    if not grid["rows"]:
        return []
    lines = [grid["corner"] + " " + "".join(f"{x:>5}" for x in grid["xs"])]
    for row in grid["rows"]:
        parts = ["." if c is None else f"{c['code']}{c['height']}" for c in row["cells"]]
        lines.append(f"{row['y']:>3} " + "".join(f"{p:>5}" for p in parts))
    return lines


def legend() -> str:
    spices = [
        f"{symbol_code(f'{colour}:{name}')} {symbol_name(f'{colour}:{name}')}"
        for colour, names in (
            ("red", ("chili", "paprika", "saffron", "cinnamon")),
            ("green", ("jalapeno", "basil", "cardamom", "wasabi")),
        )
        for name in names
    ]
    spices += [f"rRt {symbol_name('red:rat')}", f"gRt {symbol_name('green:rat')}"]
    return _(
        "Each cell shows its visible field and its height; “.” is bare table. %(codes)s; "
        "--- %(empty)s; Sta %(start)s."
    ) % {
        "codes": ", ".join(spices),
        "empty": symbol_name("empty"),
        "start": symbol_name("start"),
    }


def _rat_warning(seat: int, count: int, names: Names) -> str:
    values = {"count": count, "colour": seat_colour(seat), "name": names.name(seat)}
    if seat == names.reader_seat:
        return (
            _(
                "Careful: %(count)d of your rats (%(colour)s) show. With 3 or more at the end "
                "of your own turn you lose (rule R22)."
            )
            % values
        )
    return (
        _(
            "%(name)s shows %(count)d rats (%(colour)s): with 3 or more at the end of their "
            "own turn they lose (rule R22)."
        )
        % values
    )


def describe_table(view: dict, names: Names) -> dict:
    """The table of ``view`` (R31) as template-ready words: scores, visible rats (with
    R22 warnings from 2 on), the hand, the draw pile's size, the board drawn as text and as
    rows, the last placement's scoring."""
    players = []
    warnings = []
    for seat in (0, 1):
        rats = view["visible_rats"][seat]
        players.append(
            {
                "seat": seat,
                "name": names.name(seat),
                "is_reader": seat == names.reader_seat,
                "colour": seat_colour(seat),
                "colour_key": COLOURS[seat],
                "score": view["scores"][seat],
                "rats": rats,
            }
        )
        if rats >= 2 and view["status"] == "active":
            warnings.append(_rat_warning(seat, rats, names))
    current = view.get("current_seat")
    if current is None:
        hand_owner = None
    elif current == names.reader_seat:
        hand_owner = _("Your hand")
    else:
        hand_owner = _("%(name)s's hand") % {"name": names.name(current)}
    return {
        "game": "rattenscharf",
        "turn": view["turn"],
        "turns": total_turns(view),
        "players": players,
        "current": None if current is None else names.subject(current),
        "hand_owner": hand_owner,
        "hand": [describe_strip(s["id"], s["fields"]) for s in view["hand"]],
        "draw_pile": view["draw_pile"],
        "warnings": warnings,
        "last_scoring": [event_text(as_event(e)) for e in view["last_scoring"]],
        "board_lines": board_text(view["cells"]),
        "board": board_grid(view["cells"]),
        "legend": legend(),
    }


def describe_result(result: dict, names: Names) -> dict:
    """A finished game's ``result`` (R32) as template-ready words: why it ended, the final
    scoring (R25), each player's points and the winners (a tie shares the win, R26)."""
    rows = []
    for player in result["players"]:
        seat = player["seat"]
        rows.append(
            {
                "name": names.subject(seat),
                "colour": seat_colour(seat),
                "placement_points": player["placement_points"],
                "final_points": player["final_points"],
                "score": player["score"],
                "rats": player["visible_rats"],
                "winner": seat in result["winners"],
            }
        )
    loser = result.get("rat_loser")
    if result["reason"] == "resigned":
        ending = resigned_ending(result, names) + " " + _("(Rule R37: there is no final scoring.)")
    elif result["reason"] == "rats" and loser is not None:
        values = {
            "name": names.name(loser),
            "colour": seat_colour(loser),
            "count": result["players"][loser]["visible_rats"],
        }
        if loser == names.reader_seat:
            ending = _(
                "You ended your turn with %(count)d of your rats (%(colour)s) showing and "
                "lost (rule R23). There is no final scoring."
            )
        else:
            ending = _(
                "%(name)s ended their turn with %(count)d of their rats (%(colour)s) showing "
                "and lost (rule R23). There is no final scoring."
            )
        ending %= values
    else:
        ending = _(
            "Every strip is placed: every group of 2 or more cells scored once more "
            "(final scoring, rule R25)."
        )
    final = [
        _("%(event)s (%(count)d cells)")
        % {"event": event_text(as_event(e)), "count": len(e["cells"])}
        for e in result["final_scoring"]
    ]
    winners = [names.subject(seat) for seat in result["winners"]]
    reader_won = names.reader_seat is not None and names.reader_seat in result["winners"]
    return {
        "reason": result["reason"],
        "ending": ending,
        "final_scoring": final,
        "players": rows,
        "winners": winners,
        "reader_won": reader_won,
    }


def email_notes() -> dict:
    """Rattenscharf's own sentences in the email templates (``games.describe``:
    ``email_notes``); it has no options (R27)."""
    return {
        "deadline": _("after that the service places your strips for you (rule R34)"),
        "auto_moved": _("placed the strips of your turn for you (rule R34)"),
        "abandon": _(
            "If both players miss a whole turn back to back, the game ends without a result "
            "(rule R36)."
        ),
        # The same with stand-in bots on (games.bots): bots instead of the end.
        "abandon_stand_in": _(
            "If both players miss a whole turn back to back, bots take over their seats (rule R36)."
        ),
        "abandoned": _(
            "both players missed a whole turn back to back, so the game counts as abandoned "
            "(rule R36)."
        ),
        "reply": _(
            "Or reply to this email with your move on the first line, e.g. “place 17 at 2,0 h”: "
            "the strip, the x,y of its left or top cell, h (horizontal) or v (vertical), and "
            "“flip” to lay it the other way round."
        ),
        "digest": _("When a deadline passes, the service places your strips for you (rule R34)."),
        "stand_in_abandonment": _(
            "in your game of Rattenscharf with %(others)s both players missed a whole turn back "
            "to back. Instead of ending the game (rule R36), a %(level)s bot now plays your seat."
        ),
        "setup": [],
    }


def chat_title(short_id: str) -> str:
    """A chat post's title (webhooks)."""
    return _("Rattenscharf game %(id)s") % {"id": short_id}


def result_line(result: dict, names: Names) -> str:
    """A finished game's outcome in one sentence (webhooks)."""
    winners = ", ".join(names.name(seat) for seat in result.get("winners", []))
    text = _("The game is over. Won by: %(winners)s.") % {"winners": winners}
    if result.get("reason") == "rats" and result.get("rat_loser") is not None:
        text += " " + _("%(name)s lost to the rats (rule R23).") % {
            "name": names.name(result["rat_loser"])
        }
    return text
