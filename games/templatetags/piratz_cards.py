"""Piratz cards drawn as inline SVG from the deck data (``{% piratz_card card %}``).

A card is the CONTRACT's card dict (``{"id", "treasures", "rat", "skull"}``), so only what
the viewer's ``view`` holds can be drawn. Each drawing is an ``<svg role="img">`` whose
``aria-label`` (and ``<title>``) says the card in words (``describe.describe_card``), so a
screen reader reads the same card a sighted player sees. The symbols themselves are
defined once per page by ``games/piratz/symbols.html``, which a page drawing cards must
include.
"""

from django import template

from games.piratz.words import describe_card

register = template.Library()

# Rows of the card face: one per treasure type shown, then the rat; the skull sits in a corner.
_ROW_HEIGHT = 22
_FIRST_ROW_Y = 10


@register.inclusion_tag("games/piratz/card.html")
def piratz_card(card: dict, size: str = "") -> dict:
    """Draw ``card`` face up; ``size`` ``"small"`` for collections and the unseen set."""
    rows = [
        {"symbol": treasure, "count": count, "y": _FIRST_ROW_Y + index * _ROW_HEIGHT}
        for index, (treasure, count) in enumerate(card["treasures"].items())
    ]
    if card.get("rat"):
        rows.append({"symbol": "rat", "count": None, "y": _FIRST_ROW_Y + len(rows) * _ROW_HEIGHT})
    return {
        "card": card,
        "label": describe_card(card),
        "rows": rows,
        "skull": bool(card.get("skull")),
        "size": size,
    }


@register.inclusion_tag("games/piratz/card_back.html")
def piratz_card_back(label: str, size: str = "") -> dict:
    """Draw a face-down card (the draw pile); ``label`` is its text alternative."""
    return {"label": label, "size": size}
