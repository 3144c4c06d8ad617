"""The move the service plays for a player whose deadline has passed (rule P24)."""

from .deck import DECK, TREASURES
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


def timeout_action(state):
    """Return the action dict P24 plays for the current player; it is always legal.

    Turn or decide: pass naming the type whose matching face-up cards hold the most items
    of that type (ties: more cards taken, then P1 order), burying the remaining card with
    the most items (ties: lowest id) or null. Alarm: keep the rat with more items (ties:
    lowest id), then bury the same way. Raises ``IllegalAction("game_finished")`` once over.
    """
    if state.finished:
        raise IllegalAction("game_finished", "the game is over")
    face_up = state.face_up
    if state.phase == ALARM:
        keep = min((c for c in face_up if _RAT[c]), key=lambda c: (-_TOTAL[c], c))
        row = [c for c in face_up if c != keep]
        return {"action": "resolve_alarm", "keep": keep, "bury": _bury_choice(row)}
    best = None
    for index, treasure in enumerate(TREASURES):
        matching = [c for c in face_up if _ITEMS[c][index]]
        # Tuples compare items, then cards taken; the P1 index breaks the last tie
        # because only a strictly better later type replaces the earlier one.
        key = (sum(_ITEMS[c][index] for c in matching), len(matching))
        if best is None or key > best[0]:
            best = (key, treasure, index)
    _, treasure, index = best
    row = [c for c in face_up if not _ITEMS[c][index]]
    return {"action": "pass", "treasure": treasure, "bury": _bury_choice(row)}
