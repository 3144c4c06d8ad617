"""Rattenscharf's engine refusals as the service says them (R30; ``GameSpec.refusal_codes``
and ``refusal_sentences``)."""

from django.utils.translation import gettext_lazy

# The engine's IllegalAction codes that mean something other than "illegal now".
CODES = {
    "malformed": "invalid",
    "game_over": "game_not_active",
}

# The engine speaks English jargon (codes such as "no_contact", cell lists); every reader,
# English included, gets the sentence for the refusal's code, saying what to do instead.
SENTENCES = {
    "game_over": gettext_lazy("The game is over; no move is possible."),
    "not_your_turn": gettext_lazy("It is not your turn: wait until it is."),
    "malformed": gettext_lazy(
        "A placement has exactly the keys action (place), strip, x and y (whole numbers), "
        "orientation (h or v) and flip (true or false)."
    ),
    "not_in_hand": gettext_lazy("That strip is not in your hand: lay one of the strips you hold."),
    "off_table": gettext_lazy(
        "The strip would reach beyond the edge of the table: lay it further inside."
    ),
    "gap": gettext_lazy(
        "The three fields under the strip are not all at the same height, so it would not "
        "lie flat: choose three fields of one height."
    ),
    "exact_cover": gettext_lazy(
        "The strip would lie exactly on top of a single strip: lay it so that it rests on "
        "at least two strips."
    ),
    "no_contact": gettext_lazy(
        "On the bare table a strip must touch a strip already laid along a side: lay it "
        "next to one."
    ),
}
