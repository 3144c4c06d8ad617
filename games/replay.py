"""Replay: the table after each move, rebuilt from the public log only; the scoring explained.

Nothing here reads a game's secret state (``Game.state``: the draw order and the shuffle
key). A frame is rebuilt from what the viewer may see: the log entries
``games.movelog.public_log`` gives them (rules P23 applied) and the table they see now
(``Game.table_view``), which tells how many cards are in play and where the score
cubes were placed (P7: placement is public). So a replay can never show more than the
viewer saw at that moment; in a blind game still being played it shows less, because
the entries before the viewer's own last move are reduced to the action's kind.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import describe

# The rules' P1 order; the scoring explanation lists types in it.
TREASURE_ORDER = ("rings", "coins", "pearls", "gems", "goblets", "shells")

# The keys of the viewer's table (CONTRACT view dict) that a frame has too.
FRAME_VIEW_KEYS = (
    "round",
    "last_round",
    "draw_pile",
    "discard_pile",
    "face_up",
    "buried",
    "spades",
    "collected",
    "unseen",
    "cubes",
)


def replay_frames(entries: list[dict], now: dict) -> list[dict]:
    """The table before the first move and after every move of ``entries``, oldest first.

    ``entries`` are ``public_log`` entries of one game (every move, in order); ``now`` is
    the viewer's ``Game.table_view`` of that game today (CONTRACT view dict). Frame ``n``
    is the table after move ``n`` (frame 0: the deal), a dict with the view's keys
    ``round``, ``last_round``, ``draw_pile``, ``discard_pile``, ``face_up``, ``buried``,
    ``spades``, ``collected`` (``[{"count", "cards"}]``), ``unseen``, ``cubes``, plus
    ``number`` (the move number, 0 for the deal), ``entry`` (that move's log entry,
    None for frame 0) and ``next_seat`` (who was to move next; None after the last move).

    Only public information goes in. Where the log a viewer gets cannot tell something
    (a blind game's reduced entries: which card was revealed, what a pass took, what
    was buried), the value is None ("not known to you") instead of a guess; in a blind
    game before the end collections' cards and the unseen set are None as in ``view``.
    The caller shows the last frame of a game with ``now`` itself, which is exact.
    """
    players = now["players"]
    open_cards = now["collected"][0]["cards"] is not None  # not blind, or over
    in_play = _cards_in_play(now)
    total = in_play if isinstance(in_play, int) else len(in_play)
    table = {
        "round": 1,
        "last_round": False,
        "draw_pile": total,
        "discard_pile": 0,
        "face_up": [],
        "buried": [],
        "spades": [True] * players,
        "collected": [{"count": 0, "cards": [] if open_cards else None} for _ in range(players)],
        "cubes": initial_cubes(now),
    }
    frames = [_frame(table, 0, None, entries[0]["seat"] if entries else None, in_play)]
    for index, entry in enumerate(entries):
        _apply_entry(table, entry)
        following = entries[index + 1]["seat"] if index + 1 < len(entries) else None
        frames.append(_frame(table, entry["number"], entry, following, in_play))
    return frames


def initial_cubes(now: dict) -> dict[str, list[int]]:
    """The cubes as placed at the start (P7), per type, highest first.

    They never move during play; once the game is finished ``view`` lists only those
    left on the score card, so the awarded ones are put back.
    """
    awards = (now.get("result") or {}).get("awards", {})
    return {
        treasure: sorted(
            [*values, *(award["value"] for award in awards.get(treasure, []))], reverse=True
        )
        for treasure, values in now["cubes"].items()
    }


def _cards_in_play(now: dict):
    """Every card in play (a list, by id) when the viewer may see them all, else their number."""
    if now["unseen"] is None or any(c["cards"] is None for c in now["collected"]):
        return (
            now["draw_pile"]
            + now["discard_pile"]
            + len(now["face_up"])
            + len(now["buried"])
            + sum(c["count"] for c in now["collected"])
        )
    cards = [*now["face_up"], *now["unseen"], *(b["card"] for b in now["buried"])]
    for collected in now["collected"]:
        cards.extend(collected["cards"])
    return sorted(cards, key=lambda card: card["id"])


def _shows(card: dict, treasure: str) -> bool:
    return card["treasures"].get(treasure, 0) > 0


def _apply_entry(table: dict, entry: dict) -> None:
    """Move ``table`` on by one public log entry (rules P10-P18), in place."""
    action = entry["action"]
    kind = action["action"]
    seat = entry["seat"]
    if kind == "reveal":
        # P10: an empty draw pile takes the discard pile first (its order stays secret).
        if table["draw_pile"] == 0:
            table["draw_pile"], table["discard_pile"] = table["discard_pile"], 0
        if table["draw_pile"] is not None:
            table["draw_pile"] -= 1
            if table["draw_pile"] == 0:
                table["last_round"] = True  # P18
        revealed = entry["revealed"]
        if revealed is None or table["face_up"] is None:
            table["face_up"] = None  # a reduced entry: which card is not known
        else:
            table["face_up"].append(revealed)
        return
    if kind == "end_turn":
        return
    collected = table["collected"][seat]
    row = table["face_up"]
    if "bury" not in action or row is None:
        # A reduced entry (or a row already unknown): what was taken or buried is not known.
        table["face_up"] = None
        table["buried"] = None
        collected["count"] = None
        collected["cards"] = None
    else:
        if kind == "pass":
            taken = [card for card in row if _shows(card, action["treasure"])]
        else:  # resolve_alarm: the kept rat only (P14)
            taken = [card for card in row if card["id"] == action["keep"]]
        row = [card for card in row if card not in taken]
        if collected["count"] is not None:
            collected["count"] += len(taken)
        if collected["cards"] is not None:
            collected["cards"].extend(taken)
        if action["bury"] is not None:
            buried = next(card for card in row if card["id"] == action["bury"])
            row.remove(buried)
            if table["buried"] is not None:
                table["buried"].append({"seat": seat, "card": buried})
        table["face_up"] = row
    table["spades"][seat] = False
    if not any(table["spades"]):
        _end_round(table)


def _end_round(table: dict) -> None:
    """P17: buried cards go to the discard pile, spades return, the face-up row stays."""
    if table["buried"] is None or table["discard_pile"] is None:
        table["discard_pile"] = None
    else:
        table["discard_pile"] += len(table["buried"])
    table["buried"] = []
    table["spades"] = [True] * len(table["spades"])
    if not table["last_round"]:
        table["round"] += 1


def _frame(table: dict, number: int, entry: dict | None, next_seat, in_play) -> dict:
    """A copy of ``table`` as frame ``number``, with the unseen set where it is public."""
    frame = {
        "number": number,
        "entry": entry,
        "next_seat": next_seat,
        "round": table["round"],
        "last_round": table["last_round"],
        "draw_pile": table["draw_pile"],
        "discard_pile": table["discard_pile"],
        "face_up": None if table["face_up"] is None else list(table["face_up"]),
        "buried": None if table["buried"] is None else list(table["buried"]),
        "spades": list(table["spades"]),
        "collected": [
            {"count": c["count"], "cards": None if c["cards"] is None else list(c["cards"])}
            for c in table["collected"]
        ],
        "cubes": {treasure: list(values) for treasure, values in table["cubes"].items()},
        "unseen": None,
    }
    if isinstance(in_play, list) and frame["face_up"] is not None and frame["buried"] is not None:
        # P23 (not blind): the unseen cards are a public set, sorted by id: every card in
        # play that is neither face up, buried nor collected.
        seen = {card["id"] for card in frame["face_up"]}
        seen.update(b["card"]["id"] for b in frame["buried"])
        for collected in frame["collected"]:
            seen.update(card["id"] for card in collected["cards"] or [])
        frame["unseen"] = [card for card in in_play if card["id"] not in seen]
    return frame


# --- The scoring explained (rules P19-P22) ------------------------------------------------


def _tally(player: dict, treasure: str) -> str:
    rats = ngettext("%(count)d rat", "%(count)d rats", player["rats"]) % {"count": player["rats"]}
    cards = ngettext("%(count)d card", "%(count)d cards", player["cards"]) % {
        "count": player["cards"]
    }
    return _("%(items)s, %(rats)s, %(cards)s") % {
        "items": describe.count_items(player["items"][treasure], treasure),
        "rats": rats,
        "cards": cards,
    }


def _keys(player: dict, treasure: str) -> tuple[int, int, int]:
    """P20's ranking keys of a player for one type: items, rats, cards."""
    return player["items"][treasure], player["rats"], player["cards"]


def _why_ahead(winner: dict, other: dict, treasure: str, names, reader) -> str:
    """Why ``winner`` ranks before ``other`` for ``treasure`` (P20's keys, in order).

    When ``other`` is the ``reader``, the sentence says "you" (lower case, mid-sentence).
    """
    values = {"name": names(other["seat"])}
    you = other["seat"] == reader
    if winner["items"][treasure] != other["items"][treasure]:
        values.update(mine=winner["items"][treasure], theirs=other["items"][treasure])
        if you:
            return _("more items than you (%(mine)d to %(theirs)d)") % values
        return _("more items than %(name)s (%(mine)d to %(theirs)d)") % values
    if winner["rats"] != other["rats"]:
        values.update(mine=winner["rats"], theirs=other["rats"])
        if you:
            return (
                _("tied with you on items; the tie-break is more rats (%(mine)d to %(theirs)d)")
                % values
            )
        return (
            _("tied with %(name)s on items; the tie-break is more rats (%(mine)d to %(theirs)d)")
            % values
        )
    values.update(mine=winner["cards"], theirs=other["cards"])
    if you:
        return (
            _(
                "tied with you on items and rats; the tie-break is fewer cards "
                "(%(mine)d to %(theirs)d)"
            )
            % values
        )
    return (
        _(
            "tied with %(name)s on items and rats; the tie-break is fewer cards "
            "(%(mine)d to %(theirs)d)"
        )
        % values
    )


def _taking(holders: list[dict], place: int, treasure: str, value: int, names, reader) -> str:
    """The line saying that ``holders[place]`` takes the ``value`` cube, and why; in the
    second person when that player is the ``reader``."""
    player = holders[place]
    you = player["seat"] == reader
    values = {"name": names(player["seat"]), "value": value}
    if place + 1 < len(holders):
        values["why"] = _why_ahead(player, holders[place + 1], treasure, names, reader)
        if you:
            return _("You take the %(value)d cube: %(why)s.") % values
        return _("%(name)s takes the %(value)d cube: %(why)s.") % values
    if place == 0:
        if you:
            return _("You take the %(value)d cube: the only player holding this treasure.") % values
        return (
            _("%(name)s takes the %(value)d cube: the only player holding this treasure.") % values
        )
    if you:
        return _("You take the %(value)d cube: next in line.") % values
    return _("%(name)s takes the %(value)d cube: next in line.") % values


def _all_tied(tied: list[dict], value: int, names, reader) -> str:
    """The line saying that the ``tied`` players (P20: a full tie) leave the ``value`` cube
    and every later one on the card; the reader among them is "you", named last."""
    others = ", ".join(names(p["seat"]) for p in tied if p["seat"] != reader)
    values = {"names": others, "value": value}
    if any(p["seat"] == reader for p in tied):
        return (
            _(
                "%(names)s and you are tied on items, rats and cards, so nobody takes the "
                "%(value)d cube or any later cube of this treasure (rule P20)."
            )
            % values
        )
    return (
        _(
            "%(names)s are tied on items, rats and cards, so nobody takes the "
            "%(value)d cube or any later cube of this treasure (rule P20)."
        )
        % values
    )


def explain_scoring(
    result: dict, cubes: dict[str, list[int]], names, reader: int | None = None
) -> list[dict]:
    """Per treasure type (P1 order), who got which cube and why, as sentences.

    ``result`` is the engine's ``result`` (CONTRACT section 1), ``cubes`` the cubes as
    placed at the start (``initial_cubes``), ``names(seat)`` a player's name, ``reader``
    the seat of the one reading (their lines speak to them: "You take the 4 cube", "more
    items than you"; None: every seat in the third person). Returns
    ``[{"treasure", "name", "cubes", "holders", "lines", "awards"}]``: ``holders`` are the
    players with at least one item in P20's ranking order, each with their tally;
    ``lines`` say for each cube who took it and why (the tie-break that decided it, if
    any), or why nobody took it; ``awards`` are the ``(seat, value)`` pairs this
    explanation hands out, which always equal ``result["awards"][treasure]``.
    """
    players = result["players"]
    explained = []
    for treasure in TREASURE_ORDER:
        if treasure not in cubes:
            continue
        values = cubes[treasure]
        holders = sorted(
            (p for p in players if p["items"][treasure] > 0),
            key=lambda p: (-p["items"][treasure], -p["rats"], p["cards"], p["seat"]),
        )
        lines, awards = [], []
        if not holders:
            lines.append(_("Nobody collected any of this treasure: its cubes stay on the card."))
        for place, value in enumerate(values):
            if place >= len(holders):
                if holders:
                    lines.append(
                        _("Nobody else holds this treasure: the %(value)d cube stays on the card.")
                        % {"value": value}
                    )
                break
            player = holders[place]
            tied = [p for p in holders[place:] if _keys(p, treasure) == _keys(player, treasure)]
            if len(tied) > 1:
                lines.append(_all_tied(tied, value, names, reader))
                break
            lines.append(_taking(holders, place, treasure, value, names, reader))
            awards.append((player["seat"], value))
        explained.append(
            {
                "treasure": treasure,
                "name": describe.treasure_heading(treasure),
                "cubes": values,
                "holders": [
                    {"name": names(p["seat"]), "tally": _tally(p, treasure)} for p in holders
                ],
                "lines": lines,
                "awards": awards,
            }
        )
    return explained


# --- Rattenscharf: the board after each placement (R20, R25) ---------------------------------


def rattenscharf_frames(entries: list[dict], now: dict) -> list[dict]:
    """The board before the first placement and after each one of ``entries`` (the public
    log, R33: every placement is public), oldest first, laid with the words' ``walk`` (the
    engine's pure ``board.lay``), never from the secret state.

    Frame ``n`` is view-shaped (R31) for the board include: ``placements``, ``cells``,
    ``last_scoring`` (that placement's R20 events), ``table`` (from ``now``), plus
    ``scores`` (placement points so far), ``visible_rats``, ``number``, ``entry``,
    ``turn`` and ``next_seat``.
    """
    from games.describe.rattenscharf import walk
    from games.rules.rattenscharf.engine import event_dict
    from games.rules.rattenscharf.state import START_PLACEMENT, start_board
    from games.rules.rattenscharf.view import placement_view, visible_cells

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
    frames = [frame(start, 0, None, (), entries[0]["seat"] if entries else None, 1)]
    turn, last_seat = 1, None
    laid = list(walk(start, entries))
    for index, (entry, level, events, board) in enumerate(laid):
        action, seat = entry["action"], entry["seat"]
        if last_seat is not None and seat != last_seat:
            turn += 1
        last_seat = seat
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
        following = laid[index + 1][0]["seat"] if index + 1 < len(laid) else None
        frames.append(frame(board, entry["number"], entry, events, following, turn))
    return frames


def rattenscharf_page(entries: list[dict], now: dict, names, step_param) -> dict:
    """The replay page's context for a Rattenscharf game: the frame of ``?step=``, its
    placement in words, the scores then, and at the last step of a finished game the final
    scoring explained (R25) with the result (R32)."""
    from games.describe import rattenscharf as words

    frames = rattenscharf_frames(entries, now)
    last = len(frames) - 1
    try:
        step = int(step_param if step_param is not None else last)
    except ValueError:
        step = last
    step = min(max(step, 0), last)
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


# The games whose replay page is their own (``templates/games/<game>/replay.html``), by
# name; the others use Piratz's ``replay_frames`` and ``games/replay.html``.
REPLAY_PAGES = {"rattenscharf": rattenscharf_page}
