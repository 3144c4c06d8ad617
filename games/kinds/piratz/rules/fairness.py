"""Re-deriving a game's shuffles from its key and checking its public log against them.

The one implementation of the check; ``tools/verify_game.py`` is a standard-library copy
for players, and tests hold the two equal.
"""

from .deck import TREASURES
from .engine import deal, reshuffle


def check_deal(players, key, cubes, log):
    """Redo every shuffle of a game played with ``key`` and compare its public record.

    ``cubes`` is the placement the game showed (type name -> values, highest first);
    ``log`` its moves oldest first, each ``{"number", "round", "action", "revealed"}``
    with ``revealed`` the card id a reveal turned up (else None) and ``round`` the round
    the move was played in. Only the public log is needed: a reshuffle's pile is the
    cards buried in rounds that have ended (P13, P17) and not yet reshuffled (P10).

    Returns ``{"shuffles": [...], "mismatches": [...]}``: each shuffle as ``{"label",
    "number", "cards" (the pile, sorted), "order" (top first)}``, the deck's first, then
    the cubes' (placement per type), then each reshuffle; each mismatch as ``{"what":
    "cubes" | "revealed", "number" (the move, None for cubes), "expected", "found"}``.
    An empty ``mismatches`` means the record is what the key deals.
    """
    draw, placement = deal(players, key)
    derived_cubes = {name: list(values) for name, values in zip(TREASURES, placement, strict=True)}
    shuffles = [
        {"label": "deck", "number": 0, "cards": sorted(draw), "order": list(draw)},
        {"label": "cubes", "number": 0, "placement": derived_cubes},
    ]
    mismatches = []
    shown = {name: sorted(cubes.get(name, []), reverse=True) for name in TREASURES}
    if shown != derived_cubes or set(cubes) != set(TREASURES):
        mismatches.append(
            {"what": "cubes", "number": None, "expected": derived_cubes, "found": cubes}
        )
    draw = list(draw)
    discard = []
    buried: list[tuple[int, int]] = []  # (round, card) still under a spade
    reshuffles = 0
    for entry in log:
        # P17: the cards buried in a round that has ended lie on the discard pile.
        discard += [card for played, card in buried if played < entry["round"]]
        buried = [(played, card) for played, card in buried if played >= entry["round"]]
        action = entry["action"]
        expected = None
        if action.get("action") == "reveal":
            if not draw and discard:
                reshuffles += 1
                draw = list(reshuffle(key, reshuffles, discard))
                shuffles.append(
                    {
                        "label": "reshuffle",
                        "number": reshuffles,
                        "cards": sorted(discard),
                        "order": list(draw),
                    }
                )
                discard = []
            expected = draw.pop(0) if draw else None
        if entry["revealed"] != expected:
            mismatches.append(
                {
                    "what": "revealed",
                    "number": entry["number"],
                    "expected": expected,
                    "found": entry["revealed"],
                }
            )
        if action.get("bury") is not None:
            buried.append((entry["round"], action["bury"]))
    return {"shuffles": shuffles, "mismatches": mismatches}
