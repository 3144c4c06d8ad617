"""The names players read for a seat: a player's, a bot's with its level, a stand-in's.

Apart from ``games.bots`` (which schedules bot turns and imports the models) so that
``Seat.public_name`` can use it without an import circle.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# The words for the levels the rules know (``rules.BOT_LEVELS``); another level shows as is.
LEVEL_WORDS = {
    "random": gettext_lazy("random"),
    "careful": gettext_lazy("careful"),
    "strong": gettext_lazy("strong"),
}

# A bot's own seat is named after a pirate, by seat number: distinct in every game
# without a query, and the same in every language (names are not translated).
BOT_NAMES = ("Anne Bonny", "Calico Jack", "Mary Read", "Black Bart")


def level_word(level: str) -> str:
    return str(LEVEL_WORDS.get(level, level))


def bot_name(seat: int) -> str:
    """The name of the bot in seat ``seat`` (a bot's own seat)."""
    return BOT_NAMES[seat % len(BOT_NAMES)]


def seat_name(seat) -> str:
    """What players read for ``seat`` (``Seat.public_name``), in the active language.

    The player's name; a bot's own seat: its name and level ("Calico Jack (careful
    bot)"); a stand-in: the player's name and the bot's level, so nobody mistakes the
    bot's moves for the player's (and whether the player resigned, P26).
    """
    if not seat.bot:
        return seat.user.public_name
    if seat.user_id is None:
        return _("%(name)s (%(level)s bot)") % {
            "name": bot_name(seat.seat),
            "level": level_word(seat.bot),
        }
    if getattr(seat, "resigned", False):
        # P26: the player resigned; the bot plays their seat to the end, for good.
        return _("%(name)s (resigned; a %(level)s bot plays on)") % {
            "name": seat.user.public_name,
            "level": level_word(seat.bot),
        }
    return _("%(name)s (a %(level)s bot stands in)") % {
        "name": seat.user.public_name,
        "level": level_word(seat.bot),
    }


def person_name(seat) -> str:
    """The name of the person or bot in ``seat`` without the seat's note of who plays it
    ("Bert", where ``seat_name`` says "Bert (resigned; a careful bot plays on)")."""
    return seat.user.public_name if seat.user_id is not None else seat_name(seat)
