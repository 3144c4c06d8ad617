"""IllegalAction and the catalogue of its codes, the one place the REST layer maps from."""

from games.engine_common import IllegalActionBase

# code -> what it means. The REST layer maps "malformed_action" to 400 invalid,
# "not_your_turn" to 409 not_your_turn and every other code to 400 illegal_action.
ERROR_CODES = {
    "malformed_action": (
        "the action is not an object with exactly the keys its kind needs, or a value has "
        "the wrong type (card ids are integers, never booleans)"
    ),
    "unknown_action": "the action names no Piratz action (reveal, end_turn, pass, resolve_alarm)",
    "unknown_seat": "the seat is not one of the game's seats 0..players-1",
    "game_finished": "the game is over; no action is legal",
    "not_your_turn": "it is another seat's move",
    "wrong_phase": "this action is not legal in the current phase (P9, P11, P14)",
    "unknown_treasure": "pass named something that is not a treasure type (P1)",
    "card_not_face_up": "the card to bury is not in the face-up row after taking (P13)",
    "bury_required": "bury is null but the face-up row still holds cards (P13)",
    "bury_not_allowed": "a card to bury was given but the face-up row is empty (P13)",
    "not_alarm_rat": "keep is not one of the two face-up rat cards (P14)",
    "nothing_to_reveal": "the draw pile and the discard pile are both empty (P10)",
}


class IllegalAction(IllegalActionBase):
    """An action that is malformed or not legal now; ``code`` is a key of ``ERROR_CODES``
    (the shape is ``games.engine_common.IllegalActionBase``)."""

    ERROR_CODES = ERROR_CODES
