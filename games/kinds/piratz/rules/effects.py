"""What one applied move did, in the terms the service logs (revealed card, burial, turn)."""

from .engine import card, revealed_card


def move_effects(before, after, seat, action):
    """Describe the move ``seat`` played from ``before`` to ``after`` (``action`` was legal).

    Returns ``{"revealed": card | None, "revealed_ids": card id | None, "buried": card id
    | None, "new_turn": bool}``: the card a reveal turned up (and its id, what the log
    stores), the card buried under the spade, and whether the move
    ended the turn (so the next player to move, possibly the same last spade holder,
    starts a fresh turn and gets a fresh deadline).
    """
    revealed = revealed_card(before, after)
    return {
        "revealed": revealed,
        "revealed_ids": None if revealed is None else revealed["id"],
        "buried": action.get("bury"),
        "new_turn": action["action"] != "reveal",
    }


def public_revealed(ids):
    """A log entry's ``revealed`` from the stored card id: the card, or None."""
    return None if ids is None else card(ids)
