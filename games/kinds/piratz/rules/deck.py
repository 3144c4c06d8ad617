"""The Piratz deck: loading deck.json, validating it (rules P1-P3) and per-card lookup tables."""

import json
from importlib import resources

# P1: score-card order, used everywhere a list of types appears.
TREASURES = ("rings", "coins", "pearls", "gems", "goblets", "shells")
TREASURE_INDEX = {name: index for index, name in enumerate(TREASURES)}
# P2 / P3: the printed component counts a deck file must match.
CARD_COUNT = 50
RAT_COUNT = 10
SKULL_COUNT = 6
CUBE_VALUES = (4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1)

_CARD_KEYS = frozenset({"id", "treasures", "rat", "skull"})
_DECK_KEYS = frozenset({"game", "treasure_types", "cube_values", "cards"})


class DeckError(ValueError):
    """The deck data does not describe a valid Piratz deck (rules P1-P3)."""


class Deck:
    """Validated deck with lookup tables indexed by card id (index 0 is unused).

    The tables exist so that the hot paths (apply, legal_actions, view) never
    walk a card's treasure dict: ``items[id]`` is a tuple of six counts in P1
    order, ``total[id]`` their sum, ``rat[id]``/``skull[id]`` bools, ``shows[t]`` the
    frozenset of ids showing type index ``t``; ``card(id)`` builds a fresh card dict.
    """

    __slots__ = (
        "_treasures",
        "card",
        "ids",
        "ids_without_skulls",
        "items",
        "rat",
        "shows",
        "skull",
        "total",
    )

    def __init__(self, cards):
        size = len(cards) + 1
        # Filled as lists, then frozen into the tuples the hot paths index.
        items: list[tuple[int, ...]] = [()] * size
        total = [0] * size
        rat = [False] * size
        skull = [False] * size
        treasures: list[dict[str, int]] = [{}] * size
        for raw in cards:
            cid = raw["id"]
            counts = tuple(raw["treasures"].get(name, 0) for name in TREASURES)
            items[cid] = counts
            total[cid] = sum(counts)
            rat[cid] = raw["rat"]
            skull[cid] = raw["skull"]
            # Rebuilt in P1 order so every card dict lists its treasures in P1 order.
            treasures[cid] = {TREASURES[t]: n for t, n in enumerate(counts) if n}
        self.items = tuple(items)
        self.total = tuple(total)
        self.rat = tuple(rat)
        self.skull = tuple(skull)
        self._treasures = tuple(treasures)
        self.ids = tuple(range(1, size))
        self.ids_without_skulls = tuple(cid for cid in self.ids if not self.skull[cid])
        self.shows = tuple(
            frozenset(cid for cid in self.ids if self.items[cid][t]) for t in range(len(TREASURES))
        )
        self.card = _card_builder(self._treasures, self.rat, self.skull)


def _card_builder(treasures, rat, skull):
    # A closure over plain tuples: views build up to 50 card dicts per call, and this
    # skips the attribute lookups a method would pay for each one.
    def card(cid):
        """A fresh card dict (docs/api.md's shape) for card ``cid``; callers may mutate it."""
        return {"id": cid, "treasures": treasures[cid].copy(), "rat": rat[cid], "skull": skull[cid]}

    return card


def _fail(message):
    raise DeckError(message)


def _is_int(value):
    # bool is an int subclass; True must not pass for a count or an id.
    return type(value) is int


def validate_deck(raw):
    """Check ``raw`` (parsed deck.json) against rules P1-P3 and return a :class:`Deck`.

    Raises :class:`DeckError` naming the first problem found.
    """
    if not isinstance(raw, dict) or set(raw) != _DECK_KEYS:
        _fail(f"a deck is an object with exactly the keys {sorted(_DECK_KEYS)}")
    if raw["game"] != "piratz":
        _fail(f"deck is for game {raw['game']!r}, not 'piratz'")
    if raw["treasure_types"] != list(TREASURES):
        _fail(f"treasure_types must be {list(TREASURES)} (rules P1)")
    if raw["cube_values"] != list(CUBE_VALUES):
        _fail(f"cube_values must be {list(CUBE_VALUES)} (rules P3)")
    cards = raw["cards"]
    if not isinstance(cards, list) or len(cards) != CARD_COUNT:
        _fail(f"cards must be a list of {CARD_COUNT} cards (rules P2)")
    seen = set()
    for card in cards:
        if not isinstance(card, dict) or set(card) != _CARD_KEYS:
            _fail(f"each card is an object with exactly the keys {sorted(_CARD_KEYS)}")
        cid = card["id"]
        if not _is_int(cid) or not 1 <= cid <= CARD_COUNT or cid in seen:
            _fail(f"card id {cid!r} is not a new id in 1..{CARD_COUNT}")
        seen.add(cid)
        treasures = card["treasures"]
        if not isinstance(treasures, dict) or not set(treasures) <= set(TREASURES):
            _fail(f"card {cid}: treasures must map treasure types to counts")
        if not all(_is_int(n) and n >= 1 for n in treasures.values()):
            _fail(f"card {cid}: treasure counts must be positive integers")
        if sum(treasures.values()) not in (1, 2):
            _fail(f"card {cid}: a card shows 1 or 2 items in total (rules P2)")
        if type(card["rat"]) is not bool or type(card["skull"]) is not bool:
            _fail(f"card {cid}: rat and skull must be true or false")
    if sum(card["rat"] for card in cards) != RAT_COUNT:
        _fail(f"the deck must have {RAT_COUNT} rat cards (rules P2)")
    if sum(card["skull"] for card in cards) != SKULL_COUNT:
        _fail(f"the deck must have {SKULL_COUNT} skull cards (rules P2)")
    return Deck(sorted(cards, key=lambda card: card["id"]))


def load_deck():
    """Read and validate the packaged deck.json (swap that file to play an exact card list)."""
    text = resources.files(__package__).joinpath("deck.json").read_text(encoding="utf-8")
    return validate_deck(json.loads(text))


DECK = load_deck()
