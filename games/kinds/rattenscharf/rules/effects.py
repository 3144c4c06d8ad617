"""What one applied move did, in the terms the service logs (R33)."""

from .strips import STRIPS


def move_effects(before, after, seat, action):
    """Describe the legal move ``seat`` played from ``before`` to ``after``.

    Returns ``{"revealed": [strip ids] | None, "revealed_ids": the same, "buried": None,
    "new_turn": bool}``:
    a move that ends a turn and hands over reveals the next hand (its strip ids, in draw
    order; R33), other moves reveal nothing. ``new_turn`` says the move ended the turn
    (the hand was emptied), also when it ended the game. ``buried`` is always None
    (nothing is hidden on the table) and is there for the service's common log shape.
    """
    ended = not after.hand or after.turn != before.turn or after.finished
    handed_over = not after.finished and after.turn != before.turn
    revealed = list(after.hand) if handed_over else None
    return {
        "revealed": revealed,
        "revealed_ids": None if revealed is None else list(revealed),
        "buried": None,
        "new_turn": bool(ended),
    }


def public_revealed(ids):
    """A log entry's ``revealed`` from the stored strip ids: the strips
    (``{"id", "fields"}``, in draw order), or None (R33)."""
    if ids is None:
        return None
    return [{"id": strip, "fields": list(STRIPS[strip])} for strip in ids]
