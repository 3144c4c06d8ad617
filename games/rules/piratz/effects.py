"""What one applied move did, in the terms the service logs (revealed card, burial, turn)."""

from .engine import revealed_card


def move_effects(before, after, seat, action):
    """Describe the move ``seat`` played from ``before`` to ``after`` (``action`` was legal).

    Returns ``{"revealed": card | None, "buried": card id | None, "new_turn": bool}``:
    the card a reveal turned up, the card buried under the spade, and whether the move
    ended the turn (so the next player to move, possibly the same last spade holder,
    starts a fresh turn and gets a fresh deadline).
    """
    return {
        "revealed": revealed_card(before, after),
        "buried": action.get("bury"),
        "new_turn": action["action"] != "reveal",
    }
