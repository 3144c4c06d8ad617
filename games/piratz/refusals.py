"""Piratz's engine refusals as the service says them (``GameSpec.refusal_codes`` and
``refusal_sentences``)."""

from django.utils.translation import gettext_lazy

# The engine's IllegalAction codes that mean something other than "illegal now".
CODES = {
    "malformed_action": "invalid",
    "unknown_action": "invalid",
    "game_finished": "game_not_active",
}

# The engine speaks English (its messages name the card at fault); a reader of another
# language gets the sentence for the refusal's code.
SENTENCES = {
    "malformed_action": gettext_lazy(
        "The action must be an object with exactly the keys its kind needs, of the right "
        "types (card ids are whole numbers)."
    ),
    "unknown_action": gettext_lazy(
        "There is no such action; choose reveal, end_turn, pass or resolve_alarm."
    ),
    "unknown_seat": gettext_lazy("There is no such seat in this game."),
    "game_finished": gettext_lazy("The game is over; no move is possible."),
    "not_your_turn": gettext_lazy("It is not your turn."),
    "wrong_phase": gettext_lazy("This move is not possible at this point of the turn."),
    "unknown_treasure": gettext_lazy("That is not a treasure type."),
    "card_not_face_up": gettext_lazy("The card to bury is not in the face-up row."),
    "bury_required": gettext_lazy("The face-up row is not empty: choose a card to bury."),
    "bury_not_allowed": gettext_lazy("The face-up row is empty: there is no card to bury."),
    "not_alarm_rat": gettext_lazy("Keep one of the two rats in the face-up row."),
    "nothing_to_reveal": gettext_lazy("The draw pile and the discard pile are both empty."),
}
