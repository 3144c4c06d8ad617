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

from games.describe import Names
from games.kinds.piratz import words as describe
from games.movelog import RESIGN, first_full_entry
from games.replay import ReplayRequest, chosen_step

# The rules' P1 order; the scoring explanation lists types in it.
TREASURE_ORDER = ("rings", "coins", "pearls", "gems", "goblets", "shells")

# The keys of the viewer's table (the view: docs/api.md "The engine's entry points") in a frame.
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
    the viewer's ``Game.table_view`` of that game today (the engine's view). Frame ``n``
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
    if kind in ("end_turn", RESIGN):  # a resignation changes nothing on the table (P26)
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

    ``result`` is the engine's ``result`` (docs/api.md "The engine's entry points"), ``cubes`` the
    cubes as placed at the start (``initial_cubes``), ``names(seat)`` a player's name, ``reader``
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


# --- The page (``GameSpec.replay_page``) -------------------------------------------------


def replay_page(replay: ReplayRequest) -> dict:
    """The context of the template ``games/piratz/replay.html``: the frame of ``?step=``, the
    move in words, whether it ended a round, and at the last step of a finished game the
    scoring explained per treasure (P19-P22) with the result."""
    entries, now, names = replay.entries, replay.now, replay.names
    frames = replay_frames(entries, now)
    last = len(frames) - 1
    step = chosen_step(replay.step_param, last)
    frame = frames[step]
    if step == last:
        # The table now, exactly as the reader's view has it (the rebuilt last frame
        # equals it wherever the log is complete; in a blind game it knows more).
        frame = {**frame, **{key: now[key] for key in FRAME_VIEW_KEYS}}
        frame["next_seat"] = now["current_seat"]
    context = {
        "step": step,
        "last": last,
        "frame": frame,
        "table": _describe_frame(frame, names),
        "move": None
        if frame["entry"] is None
        else describe.describe_move(
            frame["entry"],
            names,
            replay.game.rules.card,
            rat_alert=_was_rat_alert(entries, step, now),
        ),
        "round_ended": _ended_a_round(frame),
        "next_name": (
            None if frame["next_seat"] is None else names.in_sentence(frame["next_seat"])
        ),
        # Rules P23: some entries reach this reader reduced (a blind game still running).
        "reduced_log": first_full_entry(replay.game, replay.seat, replay.moves) > 1,
    }
    if step == last and now.get("result"):
        context["scoring"] = explain_scoring(
            now["result"], initial_cubes(now), names.subject, reader=names.reader_seat
        )
        context["result"] = describe.describe_result(now["result"], names)
    return context


def _was_rat_alert(entries: list[dict], step: int, now: dict) -> bool:
    """Did move ``step`` (a reveal) put a second rat face up (rules P11)? Public: the same
    player's next move resolved a rat alert, or, for the latest move, they must now."""
    if step == 0 or entries[step - 1]["action"]["action"] != "reveal":
        return False
    if step < len(entries):
        following = entries[step]
        return (
            following["action"]["action"] == "resolve_alarm"
            and following["seat"] == entries[step - 1]["seat"]
        )
    return now.get("phase") == "alarm"


def _ended_a_round(frame: dict) -> int | None:
    """The round move ``frame`` ended (its last spade placed, rules P17), else None."""
    entry = frame["entry"]
    if entry is None or entry["action"]["action"] not in ("pass", "resolve_alarm"):
        return None
    if not all(frame["spades"]):
        return None
    # After a round's end the next one is under way, unless it was the last (P18): then
    # the game ended with it and the round number stayed.
    return frame["round"] if frame["last_round"] else frame["round"] - 1


def _describe_frame(frame: dict, names: Names) -> dict:
    """A replay frame for the template: card dicts (drawn by ``piratz_card``) and words;
    parts the reader's log cannot tell stay None ("not known to you")."""
    players = []
    for seat, collected in enumerate(frame["collected"]):
        cards = collected["cards"]
        players.append(
            {
                "name": names.names[seat],
                "is_reader": seat == names.reader_seat,
                "count": collected["count"],
                "cards": cards,
                "items": None if not cards else describe.items_in(cards),
                "holds_spade": frame["spades"][seat],
            }
        )
    buried = frame["buried"]
    return {
        "round": frame["round"],
        "last_round": frame["last_round"],
        "draw_pile": frame["draw_pile"],
        "discard_pile": frame["discard_pile"],
        "face_up": frame["face_up"],
        "buried": None
        if buried is None
        # "your spade" / "Bert's spade": the reader's own spade is never "You's spade".
        else [{"spade": names.spade(b["seat"]), "card": b["card"]} for b in buried],
        "unseen": frame["unseen"],
        "cubes": [
            {"treasure": treasure, "name": describe.treasure_heading(treasure), "values": values}
            for treasure, values in frame["cubes"].items()
        ],
        "players": players,
    }
