"""IllegalAction and the catalogue of its codes (R30), in the order apply checks them."""

from games.engine_common import IllegalActionBase

ERROR_CODES = {
    "game_over": "the game is over; no action is legal",
    "not_your_turn": "it is another seat's move (or no seat of this game)",
    "malformed": (
        "the action is not an object with exactly the keys action ('place'), strip, x, y "
        "(ints, never booleans), orientation ('h' or 'v') and flip (a boolean) (R28)"
    ),
    "not_in_hand": "the strip is not in the hand of the player to move (R17)",
    "off_table": "a cell of the strip lies outside the table -15..15 (R10)",
    "gap": "the three cells do not all have the same height (R11)",
    "exact_cover": "the strip would lie exactly on one strip (R12)",
    "no_contact": "on the bare table, no cell shares an edge with a laid strip (R13)",
}


class IllegalAction(IllegalActionBase):
    """An action that is malformed or not legal now; ``code`` is a key of ``ERROR_CODES``
    (the shape is ``games.engine_common.IllegalActionBase``)."""

    ERROR_CODES = ERROR_CODES
