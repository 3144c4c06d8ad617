"""Piratz cards drawn as inline SVG from the deck data (``{% piratz_card card %}``).

A card is the engine's card dict (``{"id", "treasures", "rat", "skull"}``), so only what
the viewer's ``view`` holds can be drawn. Each drawing is an ``<svg role="img">`` whose
``aria-label`` (and ``<title>``) says the card in words (``describe.describe_card``), so a
screen reader reads the same card a sighted player sees. The symbols themselves are
defined once per page by ``games/piratz/symbols.html``, which a page drawing cards must
include.

Like a printed card, the face shows each item as its own symbol (a card shows one or two
items, rules P2) under a band in the colour of its first treasure, with the rat below
them; the id and the skull sit in the band. Every treasure symbol carries
``data-treasure`` (and the card ``data-treasures``), which the table's click-to-act script
reads to name the treasure clicked.
"""

import functools

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games.kinds.piratz.words import describe_card

register = template.Library()

# Where the items go on the 60 x 84 face below the band (x, y, size per symbol), by the
# number of items and whether a rat shares the face.
_ITEM_PLACES = {
    (1, False): [(12, 26, 36)],
    (2, False): [(16, 17, 28), (16, 50, 28)],
    (1, True): [(15, 17, 30)],
    (2, True): [(5, 20, 24), (31, 20, 24)],
}
_RAT_PLACE = (14, 50, 32)


CARD_TEMPLATE = "games/piratz/card.html"


@register.simple_tag
def piratz_card(card: dict, size: str = "") -> SafeString:
    """Draw ``card`` face up; ``size`` ``"small"`` for collections and the unseen set."""
    # A table draws fifty cards or more, and a card's drawing depends only on what the
    # card shows, its size and the language of its words: each is rendered once per
    # process (the deck is a few dozen cards) instead of once per card on every page.
    return _drawing(
        card["id"],
        tuple(card["treasures"].items()),
        bool(card.get("rat")),
        bool(card.get("skull")),
        size,
        get_language(),
    )


@functools.lru_cache(maxsize=1024)
def _drawing(card_id, treasures: tuple, rat: bool, skull: bool, size: str, language) -> SafeString:
    card = {"id": card_id, "treasures": dict(treasures), "rat": rat, "skull": skull}
    # The template escaped every value it drew: its output is safe HTML.
    return mark_safe(render_to_string(CARD_TEMPLATE, card_context(card, size)))


def card_context(card: dict, size: str = "") -> dict:
    """What ``games/piratz/card.html`` draws for ``card`` at ``size``."""
    symbols = [t for t, count in card["treasures"].items() for _ in range(count)]
    rat = bool(card.get("rat"))
    places = _ITEM_PLACES.get((len(symbols), rat))
    if places is None:  # a deck with more items per card: a column of small symbols
        places = [(20, 16 + index * 21, 20) for index in range(len(symbols))]
    items = [
        {"symbol": symbol, "x": x, "y": y, "size": side}
        for symbol, (x, y, side) in zip(symbols, places, strict=False)
    ]
    if rat:
        x, y, side = _RAT_PLACE
        items.append({"symbol": "rat", "x": x, "y": y, "size": side})
    return {
        "card": card,
        "label": describe_card(card),
        "items": items,
        "treasures": " ".join(card["treasures"]),
        "band": "rat" if rat else next(iter(card["treasures"]), "none"),
        "skull": bool(card.get("skull")),
        "size": size,
    }


@register.inclusion_tag("games/piratz/card_back.html")
def piratz_card_back(label: str, size: str = "") -> dict:
    """Draw a face-down card (the draw pile); ``label`` is its text alternative."""
    return {"label": label, "size": size}
