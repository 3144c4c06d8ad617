"""Piratz tables and moves in words, for the emails and pages players read.

Everything here works on what a player may see: the engine's ``view(state, seat)``
dict and public move-log entries (``games.movelog.public_log`` or
``Move.public_entry``), plus the deck data (``rules.card(id)``). It never reads the
secret state, so nothing it writes can leak the draw order or, in blind mode,
anyone's collection.
"""

from collections import Counter
from datetime import datetime
from zoneinfo import ZoneInfo

# Rules P1 order; the singular is used for one item ("1 coin").
TREASURE_SINGULAR = {
    "rings": "ring",
    "coins": "coin",
    "pearls": "pearl",
    "gems": "gem",
    "goblets": "goblet",
    "shells": "shell",
}
PHASE_WORDS = {
    "turn": "starting a turn",
    "decide": "deciding whether to reveal another card or pass",
    "alarm": "resolving a rat alert",
}


def count_items(number: int, treasure: str) -> str:
    """``"1 coin"``, ``"3 coins"``."""
    return f"{number} {TREASURE_SINGULAR.get(treasure, treasure) if number == 1 else treasure}"


def describe_card(card: dict) -> str:
    """A card in words with its id: ``"3 coins, 1 pearl, skull (#17)"``, ``"1 shell, rat (#4)"``."""
    parts = [count_items(number, treasure) for treasure, number in card["treasures"].items()]
    if card.get("rat"):
        parts.append("rat")
    if card.get("skull"):
        parts.append("skull")
    return f"{', '.join(parts)} (#{card['id']})"


def describe_cards(cards: list[dict]) -> str:
    """Several cards in words, ``"nothing"`` for none."""
    return "; ".join(describe_card(card) for card in cards) or "nothing"


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
    text = ", ".join(items) or "no items"
    return f"{text}; {rats} rat{'' if rats == 1 else 's'}"


def format_moment(moment: datetime | None, zone: ZoneInfo) -> str:
    """A moment as a reader in ``zone`` says it, e.g. ``"Tuesday 24 November, 10:00 CET"``."""
    if moment is None:
        return ""
    local = moment.astimezone(zone)
    return f"{local:%A} {local.day} {local:%B}, {local:%H:%M} {local.tzname()}"


class Names:
    """Who sits where, as the reader of a text calls them ("you" for their own seat)."""

    def __init__(self, names: list[str], reader_seat: int | None = None):
        self.names = names
        self.reader_seat = reader_seat

    def subject(self, seat: int) -> str:
        if seat == self.reader_seat:
            return "You"
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat}"

    def possessive(self, seat: int) -> str:
        """The pronoun for a sentence whose subject is this seat: "your" or "their"."""
        return "your" if seat == self.reader_seat else "their"

    def owner(self, seat: int) -> str:
        """Whose, standing alone: "your" or "Bert's"."""
        return "your" if seat == self.reader_seat else f"{self.subject(seat)}'s"


def describe_move(entry: dict, names: Names, card, *, rat_alert: bool = False) -> str:
    """One public log entry as a sentence.

    ``card`` is the rules module's ``card(id)``; ``rat_alert`` marks a reveal that turned
    up the second rat. Entries reduced by rules P23 (blind mode: only the action's kind,
    no revealed card) are described without the details they no longer carry.
    """
    who = names.subject(entry["seat"])
    their = names.possessive(entry["seat"])
    action = entry["action"]
    kind = action.get("action")
    if kind == "reveal":
        revealed = entry.get("revealed")
        text = f"{who} revealed {describe_card(revealed) if revealed else 'a card'}."
        if rat_alert:
            text += " Rat alert: two rats in the face-up row!"
    elif kind == "end_turn":
        text = f"{who} ended {their} turn."
    elif kind == "pass":
        if "treasure" not in action:
            text = f"{who} passed."
        else:
            text = f"{who} passed naming {action['treasure']} and {_burial(action, their, card)}."
    elif kind == "resolve_alarm":
        if "keep" not in action:
            text = f"{who} resolved a rat alert."
        else:
            kept = describe_card(card(action["keep"]))
            text = f"{who} resolved the rat alert, kept {kept} and {_burial(action, their, card)}."
    else:
        text = f"{who} played {kind}."
    if entry.get("automatic"):
        text += " (Played automatically: the deadline had passed.)"
    return text


def _burial(action: dict, their: str, card) -> str:
    if action.get("bury") is None:
        return f"placed {their} spade with no card under it"
    return f"buried {describe_card(card(action['bury']))} under {their} spade"


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
                f"Round {played_in} ended: the buried cards went to the discard pile "
                "and every spade went back to its player."
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
                "name": names.names[seat] if seat < len(names.names) else f"Seat {seat}",
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
        "last_round": view["last_round"],
        "draw_pile": view["draw_pile"],
        "discard_pile": view["discard_pile"],
        "face_up": [describe_card(card) for card in view["face_up"]],
        "buried": [
            {"owner": names.owner(b["seat"]), "card": describe_card(b["card"])}
            for b in view["buried"]
        ],
        "cubes": [
            {"treasure": treasure, "values": ", ".join(str(v) for v in values) or "none left"}
            for treasure, values in view["cubes"].items()
        ],
        "players": players,
        "current": None if current is None else names.subject(current),
        "phase": PHASE_WORDS.get(view.get("phase") or "", ""),
        "blind": any(p["cards"] is None for p in players),
    }


def describe_result(result: dict, names: Names) -> dict:
    """A finished game's ``result`` (CONTRACT §1) as template-ready words."""
    rows = []
    for player in result["players"]:
        items = ", ".join(count_items(n, t) for t, n in player["items"].items() if n) or "no items"
        rows.append(
            {
                "name": names.subject(player["seat"]),
                "items": items,
                "rats": player["rats"],
                "cards": player["cards"],
                "cubes": ", ".join(str(v) for v in player["cubes"]) or "none",
                "score": player["score"],
                "winner": player["seat"] in result["winners"],
            }
        )
    winners = [names.subject(seat) for seat in result["winners"]]
    return {"players": rows, "winners": winners}
