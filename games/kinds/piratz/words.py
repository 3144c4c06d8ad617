"""Piratz tables and moves in words, for the emails and pages players read (``games.describe``).

Everything here works on what a player may see: the engine's ``view(state, seat)``
dict and public move-log entries (``games.movelog.public_log`` or
``Move.public_entry``), plus the deck data (``rules.card(id)``). It never reads the
secret state, so nothing it writes can leak the draw order or, in blind mode,
anyone's collection.

Every text is in the active language (``gettext``): callers writing to someone else,
such as the emails, compose under ``translation.override(language_of(reader))``.
"""

from collections import Counter

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from games.describe.common import (
    RESIGN,
    Names,
    automatic_note,
    resigned_ending,
    resigned_sentence,
)

# Rules P1 order; the singular is used for one item ("1 coin").
TREASURE_SINGULAR = {
    "rings": "ring",
    "coins": "coin",
    "pearls": "pearl",
    "gems": "gem",
    "goblets": "goblet",
    "shells": "shell",
}
# A treasure type standing alone (score card, a pass naming it); German per the rules:
# Ringe, Münzen, Perlen, Edelsteine, Kelche, Muscheln.
TREASURE_NAMES = {
    "rings": pgettext_lazy("treasure type", "rings"),
    "coins": pgettext_lazy("treasure type", "coins"),
    "pearls": pgettext_lazy("treasure type", "pearls"),
    "gems": pgettext_lazy("treasure type", "gems"),
    "goblets": pgettext_lazy("treasure type", "goblets"),
    "shells": pgettext_lazy("treasure type", "shells"),
}
PHASE_WORDS = {
    "turn": gettext_lazy("starting a turn"),
    # Rules P11: after a reveal only passing or ending the turn is legal, never another reveal.
    "decide": gettext_lazy("deciding whether to end the turn or pass"),
    "alarm": gettext_lazy("resolving a rat alert"),
}


def treasure_name(treasure: str) -> str:
    """A treasure type's name in the active language (``"rings"``, ``"Ringe"``)."""
    return str(TREASURE_NAMES.get(treasure, treasure))


def treasure_heading(treasure: str) -> str:
    """A treasure type's name as a heading (``"Rings"``, ``"Ringe"``), translated."""
    names = {
        "rings": _("Rings"),
        "coins": _("Coins"),
        "pearls": _("Pearls"),
        "gems": _("Gems"),
        "goblets": _("Goblets"),
        "shells": _("Shells"),
    }
    return names.get(treasure, treasure)


def count_items(number: int, treasure: str) -> str:
    """``"1 coin"``, ``"3 coins"`` (``"1 Münze"``, ``"3 Münzen"``)."""
    counted = {
        "rings": lambda: ngettext("%(count)d ring", "%(count)d rings", number),
        "coins": lambda: ngettext("%(count)d coin", "%(count)d coins", number),
        "pearls": lambda: ngettext("%(count)d pearl", "%(count)d pearls", number),
        "gems": lambda: ngettext("%(count)d gem", "%(count)d gems", number),
        "goblets": lambda: ngettext("%(count)d goblet", "%(count)d goblets", number),
        "shells": lambda: ngettext("%(count)d shell", "%(count)d shells", number),
    }.get(treasure)
    if counted is None:  # not Piratz's: the deck data's own word
        return f"{number} {treasure}"
    return counted() % {"count": number}


def describe_card(card: dict) -> str:
    """A card in words with its id: ``"3 coins, 1 pearl, skull (#17)"``, ``"1 shell, rat (#4)"``."""
    parts = [count_items(number, treasure) for treasure, number in card["treasures"].items()]
    if card.get("rat"):
        parts.append(pgettext("on a card", "rat"))
    if card.get("skull"):
        parts.append(pgettext("on a card", "skull"))
    return f"{', '.join(parts)} (#{card['id']})"


def describe_cards(cards: list[dict]) -> str:
    """Several cards in words, ``"nothing"`` for none."""
    return "; ".join(describe_card(card) for card in cards) or _("nothing")


def items_in(cards: list[dict]) -> str:
    """What a collection adds up to, e.g. ``"3 coins, 1 gem; 2 rats"`` (P19's counts)."""
    totals: Counter = Counter()
    for card in cards:
        totals.update(card["treasures"])
    # Counter keeps first-seen order; scoring order (P1) is what players know.
    order = list(TREASURE_SINGULAR)
    items = [
        count_items(totals[t], t)
        for t in sorted(totals, key=lambda t: order.index(t) if t in order else len(order))
    ]
    rats = sum(1 for card in cards if card.get("rat"))
    text = ", ".join(items) or _("no items")
    return f"{text}; " + ngettext("%(count)d rat", "%(count)d rats", rats) % {"count": rats}


def describe_move(entry: dict, names: Names, card, *, rat_alert: bool = False) -> str:
    """One public log entry as a sentence.

    ``card`` is the rules module's ``card(id)``; ``rat_alert`` marks a reveal that turned
    up the second rat. Entries reduced by rules P23 (blind mode: only the action's kind,
    no revealed card) are described without the details they no longer carry. Whole
    sentences, one for the reader's own moves and one for another's: languages conjugate
    "you" and a name differently (German "Du hast", "Bert hat").
    """
    own = entry["seat"] == names.reader_seat
    values = {"name": names.name(entry["seat"])}
    action = entry["action"]
    kind = action.get("action")
    if kind == "reveal":
        revealed = entry.get("revealed")
        if revealed:
            values["card"] = describe_card(revealed)
            text = _("You revealed %(card)s.") if own else _("%(name)s revealed %(card)s.")
        else:
            text = _("You revealed a card.") if own else _("%(name)s revealed a card.")
        text %= values
        if rat_alert:
            text += " " + _("Rat alert: two rats in the face-up row!")
    elif kind == "end_turn":
        text = (_("You ended your turn.") if own else _("%(name)s ended their turn.")) % values
    elif kind == "pass":
        if "treasure" not in action:
            text = (_("You passed.") if own else _("%(name)s passed.")) % values
        else:
            values["treasure"] = treasure_name(action["treasure"])
            values["burial"] = _burial(action, own, card)
            text = (
                _("You passed naming %(treasure)s and %(burial)s.")
                if own
                else _("%(name)s passed naming %(treasure)s and %(burial)s.")
            ) % values
    elif kind == RESIGN:
        return resigned_sentence(entry, names)  # P26: no move, never automatic
    elif kind == "resolve_alarm":
        if "keep" not in action:
            text = _("You resolved a rat alert.") if own else _("%(name)s resolved a rat alert.")
            text %= values
        else:
            values["kept"] = describe_card(card(action["keep"]))
            values["burial"] = _burial(action, own, card)
            text = (
                _("You resolved the rat alert, kept %(kept)s and %(burial)s.")
                if own
                else _("%(name)s resolved the rat alert, kept %(kept)s and %(burial)s.")
            ) % values
    else:
        values["kind"] = kind
        text = (_("You played %(kind)s.") if own else _("%(name)s played %(kind)s.")) % values
    if entry.get("automatic"):
        text += " " + automatic_note(entry, _("(Played automatically by a moderator, rules P24.)"))
    return text


def _burial(action: dict, own: bool, card) -> str:
    if action.get("bury") is None:
        if own:
            return _("placed your spade with no card under it")
        return _("placed their spade with no card under it")
    buried = {"card": describe_card(card(action["bury"]))}
    if own:
        return _("buried %(card)s under your spade") % buried
    return _("buried %(card)s under their spade") % buried


def describe_log(
    entries: list[dict], rounds: dict[int, int], current_round: int | None, names: Names, card
) -> list[str]:
    """Sentences for ``entries`` (oldest first), with a line after each move that ended a round.

    ``rounds`` maps each move number to the round it was played in (public: the log's
    order and the round count are seen by everyone); ``current_round`` is the game's
    round now (None once it is over), so a round ended by the last entry is told too.
    """
    lines = []
    for index, entry in enumerate(entries):
        following = entries[index + 1] if index + 1 < len(entries) else None
        rat_alert = (
            following is not None
            and following["action"].get("action") == "resolve_alarm"
            and following["seat"] == entry["seat"]
            and entry["action"].get("action") == "reveal"
        )
        lines.append(describe_move(entry, names, card, rat_alert=rat_alert))
        played_in = rounds.get(entry["number"])
        next_round = rounds.get(following["number"]) if following else current_round
        if played_in is not None and next_round is not None and next_round != played_in:
            lines.append(
                _(
                    "Round %(round)d ended: the buried cards went to the discard pile "
                    "and every spade went back to its player."
                )
                % {"round": played_in}
            )
    return lines


def describe_table(view: dict, names: Names) -> dict:
    """The table of ``view`` (the engine's view for one seat) as template-ready words.

    Collections show their cards only where the view does (never in blind mode before
    the end); otherwise only how many cards each player holds.
    """
    spades = view["spades"]
    players = []
    for seat, collected in enumerate(view["collected"]):
        cards = collected["cards"]
        players.append(
            {
                "seat": seat,
                "name": names.name(seat),
                "is_reader": seat == names.reader_seat,
                "count": collected["count"],
                "cards": None if cards is None else [describe_card(c) for c in cards],
                "items": None if cards is None else items_in(cards),
                "holds_spade": spades[seat] if seat < len(spades) else False,
            }
        )
    current = view.get("current_seat")
    return {
        "round": view["round"],
        # Only while it is played: once over, "last round" says nothing (and the draw pile,
        # refilled by the last round's reshuffle, P18, seemed to contradict it).
        "last_round": view["last_round"] and view.get("result") is None,
        "draw_pile": view["draw_pile"],
        "discard_pile": view["discard_pile"],
        "face_up": [describe_card(card) for card in view["face_up"]],
        "buried": [
            {
                "owner": names.owner(b["seat"]),
                "spade": names.spade(b["seat"]),
                "card": describe_card(b["card"]),
            }
            for b in view["buried"]
        ],
        "cubes": [
            {
                "treasure": treasure,
                "name": treasure_name(treasure),
                "values": ", ".join(str(v) for v in values) or _("none left"),
            }
            for treasure, values in view["cubes"].items()
        ],
        "players": players,
        "current": None if current is None else names.subject(current),
        "phase": str(PHASE_WORDS.get(view.get("phase") or "", "")),
        "blind": any(p["cards"] is None for p in players),
    }


def describe_result(result: dict, names: Names) -> dict:
    """A finished game's ``result`` (docs/api.md "The engine's entry points") in words."""
    rows = []
    for player in result["players"]:
        items = ", ".join(count_items(n, t) for t, n in player["items"].items() if n)
        rows.append(
            {
                "name": names.subject(player["seat"]),
                "items": items or _("no items"),
                "rats": player["rats"],
                "cards": player["cards"],
                "cubes": ", ".join(str(v) for v in player["cubes"]) or _("none"),
                "score": player["score"],
                "winner": player["seat"] in result["winners"],
            }
        )
    winners = [names.subject(seat) for seat in result["winners"]]
    reader_won = names.reader_seat is not None and names.reader_seat in result["winners"]
    # P26: who resigned (and so cannot win); "" when nobody did.
    ending = resigned_ending(result, names)
    return {"players": rows, "winners": winners, "reader_won": reader_won, "ending": ending}


# --- The words interface every game's module offers (see ``games.describe``) -------------

# Why an abandoned game ended (rules P25), as the ``end_reason`` template filter says it.
ABANDONED = pgettext_lazy("why a game ended", "every move of a round was automatic")
# A move's sentence needs no earlier entries: the card ids say it all.
NEEDS_HISTORY = False


def describe_entry(entry: dict, names: Names, rules, *, history=(), rat_alert: bool = False) -> str:
    """One public log entry as a sentence (``describe_move``); ``history`` is not needed."""
    return describe_move(entry, names, rules.card, rat_alert=rat_alert)


def describe_moves(
    entries: list[dict],
    names: Names,
    rules,
    *,
    since: int = 0,
    rounds: dict[int, int] | None = None,
    current_round: int | None = None,
) -> list[str]:
    """Sentences for the entries after move ``since`` (``describe_log``), round ends told."""
    later = [entry for entry in entries if entry["number"] > since]
    return describe_log(later, rounds or {}, current_round, names, rules.card)


def describe_auto_moved(
    entries: list[dict], table_before: dict | None, names: Names, rules, *, hidden: bool
) -> dict:
    """What the automatic move (P24) did: ``moves`` (its sentence), and in ``details``
    what it took from the face-up row of ``table_before`` (only how many cards when
    ``hidden``, blind mode before the end; nothing said without ``table_before``)."""
    entry = entries[0]
    taken = None
    face_up = None if table_before is None else table_before.get("face_up")
    if face_up is not None:
        cards = _taken_by(entry["action"], face_up, rules.card)
        if hidden:
            # Blind mode (P23): nobody sees a collection's cards before the end, the
            # owner included; the count is public.
            taken = ngettext("%(count)d card", "%(count)d cards", len(cards)) % {
                "count": len(cards)
            }
        else:
            taken = describe_cards(cards)
    move = describe_entry(entry, names, rules)
    details = [] if taken is None else [_("It took: %(taken)s.") % {"taken": taken}]
    return {"moves": [move], "details": details}


def _taken_by(action: dict, face_up: list[dict], card) -> list[dict]:
    """The cards a pass or rat-alert move took from the public face-up row (rules P12, P14)."""
    if action.get("action") == "pass":
        return [c for c in face_up if c["treasures"].get(action.get("treasure"))]
    if action.get("action") == "resolve_alarm":
        return [card(action["keep"])]
    return []


def chat_title(short_id: str) -> str:
    """A chat post's title (webhooks)."""
    return _("Piratz game %(id)s") % {"id": short_id}


def result_line(result: dict, names: Names) -> str:
    """A finished game's outcome in one sentence (webhooks)."""
    winners = ", ".join(names.name(seat) for seat in result.get("winners", []))
    return _("The game is over. Won by: %(winners)s.") % {"winners": winners}


def email_notes(*, blind: bool = False) -> dict:
    """Piratz's own sentences in the email templates (``games.describe``: ``email_notes``)."""
    return {
        "deadline": _("after that the service passes for you (rules P24)"),
        "reply": _(
            "Or reply to this email with your move on the first line: reveal, end, pass coins "
            "bury 12, keep 3 bury 17 (card numbers as on the table below)."
        ),
        "auto_moved": _("played for you as rules P24 say"),
        "abandon": _(
            "If every move of a whole round is played automatically, the game ends (rules P25)."
        ),
        # The same with stand-in bots on (games.bots): a bot instead of the end.
        "abandon_stand_in": _(
            "If every move of a whole round is played automatically, a bot takes over the seat "
            "of every player who did not move (rules P25)."
        ),
        "abandoned": _(
            "every move of a whole round was played automatically because no player moved in "
            "time, so the game counts as abandoned (rules P25)."
        ),
        "digest": _("When a deadline passes, the service passes for you (rules P24)."),
        "stand_in_abandonment": _(
            "in your game of Piratz with %(others)s a whole round was played automatically "
            "because no player moved in time. Instead of ending the game (rules P25), a "
            "%(level)s bot now plays your seat."
        ),
        # P23: the invitation and the start say so when collections stay hidden.
        "setup": [_("Blind mode: collected cards stay hidden until the end.")] if blind else [],
    }
