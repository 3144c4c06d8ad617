"""The names players read for a seat: a short label ("Carla · bot"), the sentence that
explains its word (``seat_note``), the API's long name (``full_name``) and its role.

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


# What a seat is, for the API's ``role`` and the short label's note.
PLAYER, BOT, STAND_IN, RESIGNED = "player", "bot", "stand_in", "resigned"


def seat_role(seat) -> str:
    """``player`` (a person plays it), ``bot`` (a bot's own seat), ``stand_in`` (a bot
    plays for its person, who may take the seat back) or ``resigned`` (the person
    resigned and a bot plays on, P26)."""
    if not seat.bot:
        return PLAYER
    if seat.user_id is None:
        return BOT
    return RESIGNED if getattr(seat, "resigned", False) else STAND_IN


def seat_name(seat) -> str:
    """What players read for ``seat`` (``Seat.public_name``), in the active language: short
    everywhere, on a score card as in a subject.

    The player's name; a seat a bot plays, the name and one word ("Calico Jack · bot",
    "Carla · bot" for a stand-in, "Bert · resigned" when a bot plays a resigned player's
    seat on, P26), so nobody mistakes the bot's moves for the player's. What the word
    means (the bot's level, whether the player may come back) is ``seat_note``'s, said
    once beside the names (a legend, a tooltip).
    """
    role = seat_role(seat)
    if role == PLAYER:
        return seat.user.public_name
    if role == RESIGNED:
        return _("%(name)s · resigned") % {"name": person_name(seat)}
    return _("%(name)s · bot") % {"name": person_name(seat)}


def seat_note(seat) -> str:
    """The sentence that explains ``seat_name``'s word for ``seat`` ("A careful bot stands
    in for Carla."), or "" for a seat its player plays."""
    role = seat_role(seat)
    values = {"name": person_name(seat), "level": level_word(seat.bot)}
    if role == BOT:
        return _("%(name)s is a %(level)s bot.") % values
    if role == STAND_IN:
        return _("A %(level)s bot stands in for %(name)s, who may take the seat back.") % values
    if role == RESIGNED:
        return _("%(name)s resigned; a %(level)s bot plays on.") % values
    return ""


def full_name(seat) -> str:
    """The seat's name with its whole note in one: the API's seat ``name`` (docs/api.md:
    "``name`` says the bot's level"), kept as it was; pages and emails use ``seat_name``."""
    role = seat_role(seat)
    values = {"name": person_name(seat), "level": level_word(seat.bot)}
    if role == PLAYER:
        return seat.user.public_name
    if role == BOT:
        return _("%(name)s (%(level)s bot)") % values
    if role == RESIGNED:
        # P26: the player resigned; the bot plays their seat to the end, for good.
        return _("%(name)s (resigned; a %(level)s bot plays on)") % values
    return _("%(name)s (a %(level)s bot stands in)") % values


def person_name(seat) -> str:
    """The name of the person or bot in ``seat`` without the seat's note of who plays it
    ("Bert", where ``seat_name`` says "Bert · resigned"; "Calico Jack" for a bot's own
    seat): for sentences that say the note themselves ("Bert resigned")."""
    return seat.user.public_name if seat.user_id is not None else bot_name(seat.seat)
