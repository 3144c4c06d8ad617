"""The move the service plays for a player whose deadline has passed (rule P24).

A player may leave a standing order (an ordered list of treasure types) that the
service follows instead of P24's choice of type; see ``timeout_action``.
"""

from .deck import DECK, TREASURE_INDEX, TREASURES
from .errors import IllegalAction
from .state import ALARM

_ITEMS = DECK.items
_TOTAL = DECK.total
_RAT = DECK.rat


def _bury_choice(row):
    """P24: the remaining face-up card with the most items (ties: lowest id), or None."""
    if not row:
        return None
    return min(row, key=lambda c: (-_TOTAL[c], c))


def timeout_action(state, standing_order=()):
    """Return the action dict played for the current player at their deadline; always legal.

    Turn or decide: pass naming the type whose matching face-up cards hold the most items
    of that type (ties: more cards taken, then P1 order), burying the remaining card with
    the most items (ties: lowest id) or null. Alarm: keep the rat with more items (ties:
    lowest id), then bury the same way. Raises ``IllegalAction("game_finished")`` once over.

    ``standing_order``: the player's ordered treasure types (optional; the default is
    P24 exactly, as docs/api.md "The engine's entry points" fixes it). In turn or decide,
    the first listed type that at least one face-up card shows is named instead of P24's
    choice, burying as P24 does; when no listed type takes a card (or in alarm, where no
    type is named), P24 decides. A name that is not a treasure type takes nothing, so it is
    passed over.
    """
    if state.finished:
        raise IllegalAction("game_finished", "the game is over")
    face_up = state.face_up
    if state.phase == ALARM:
        keep = min((c for c in face_up if _RAT[c]), key=lambda c: (-_TOTAL[c], c))
        row = [c for c in face_up if c != keep]
        return {"action": "resolve_alarm", "keep": keep, "bury": _bury_choice(row)}
    for treasure in standing_order:
        index = TREASURE_INDEX.get(treasure)
        if index is not None and any(_ITEMS[c][index] for c in face_up):
            return _pass(face_up, treasure, index)
    best = None
    for index, treasure in enumerate(TREASURES):
        matching = [c for c in face_up if _ITEMS[c][index]]
        # Tuples compare items, then cards taken; the P1 index breaks the last tie
        # because only a strictly better later type replaces the earlier one.
        key = (sum(_ITEMS[c][index] for c in matching), len(matching))
        if best is None or key > best[0]:
            best = (key, treasure, index)
    assert best is not None  # one key per treasure type
    _, treasure, index = best
    return _pass(face_up, treasure, index)


def _pass(face_up, treasure, index):
    """Pass naming ``treasure`` (P1 position ``index``), burying as P24 says."""
    row = [c for c in face_up if not _ITEMS[c][index]]
    return {"action": "pass", "treasure": treasure, "bury": _bury_choice(row)}
