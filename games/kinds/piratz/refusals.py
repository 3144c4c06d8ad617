"""Piratz's engine refusals as the service says them (``GameSpec.refusal_codes`` and
``refusal_sentences``)."""

from django.utils.translation import gettext_lazy

# The engine's IllegalAction codes that mean something other than "illegal now".
CODES = {
    "malformed_action": "invalid",
    "unknown_action": "invalid",
    "game_finished": "game_not_active",
}

# The engine speaks English jargon (codes, phase names, "bury must be null"); every reader,
# English included, gets the sentence for the refusal's code, saying what to do instead.
SENTENCES = {
    "malformed_action": gettext_lazy(
        "The move is not written the way this game reads it: give exactly what its kind "
        "needs, with card numbers as whole numbers."
    ),
    "unknown_action": gettext_lazy(
        "There is no such move: you can reveal a card, end your turn, pass, or resolve a rat alert."
    ),
    "unknown_seat": gettext_lazy("There is no such seat in this game."),
    "game_finished": gettext_lazy("The game is over; no move is possible."),
    "not_your_turn": gettext_lazy("It is not your turn: wait until it is."),
    "wrong_phase": gettext_lazy(
        "This move is not possible at this point of your turn: at its start you may reveal "
        "a card or pass; after a reveal, end your turn or pass; in a rat alert, keep one of "
        "the two rats."
    ),
    "unknown_treasure": gettext_lazy(
        "That is not a treasure type: name rings, coins, pearls, gems, goblets or shells."
    ),
    "card_not_face_up": gettext_lazy(
        "The card to bury is not left in the face-up row: choose one of the cards still "
        "lying there."
    ),
    "bury_required": gettext_lazy(
        "Cards are still lying in the face-up row: choose one of them to bury under your spade."
    ),
    "bury_not_allowed": gettext_lazy(
        "No card is left in the face-up row, so there is none to bury: your spade goes down "
        "on no card."
    ),
    "not_alarm_rat": gettext_lazy("Keep one of the two rats in the face-up row."),
    "nothing_to_reveal": gettext_lazy(
        "The draw pile and the discard pile are both empty, so no card can be revealed: pass "
        "instead."
    ),
}
