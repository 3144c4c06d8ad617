"""What every game's words share: who is who in a text, and moments in the reader's zone."""

from datetime import datetime
from zoneinfo import ZoneInfo

from django.utils import dateformat
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext


def format_moment(moment: datetime | None, zone: ZoneInfo) -> str:
    """A moment as a reader in ``zone`` says it, e.g. ``"Tuesday 24 November, 10:00 CET"``.

    In the active language: the format is translated (German ``"Dienstag, 24. November,
    10:00 CET"``) and Django's date format gives the day and month names.
    """
    if moment is None:
        return ""
    local = moment.astimezone(zone)
    # Django date format characters (l: weekday, j: day, F: month, H:i, T: zone name).
    return dateformat.format(local, pgettext("deadline date format", "l j F, H:i T"))


def automatic_note(entry: dict, by_moderator: str) -> str:
    """What an automatic log entry (P24, R34) is marked with: ``by_moderator`` (the game's
    words) when its ``actor``, which callers may add to a public entry, is ``moderator``;
    the resigned seat's bot (P26) when it is ``bot``; else that the deadline had passed.
    Never who the moderator was."""
    if entry.get("actor") == "moderator":
        return by_moderator
    if entry.get("actor") == "bot":
        return _("(Played by the bot that plays a resigned seat, rule P26.)")
    return _("(Played automatically: the deadline had passed.)")


# A resignation's log entry (P26, R37): ``{"action": "resign"}``. Not an engine action:
# whatever replays the log through the rules skips it (``is_resignation``).
RESIGN = "resign"


def is_resignation(action: dict) -> bool:
    """Whether a log entry's ``action`` is a resignation rather than an engine move."""
    return action.get("action") == RESIGN


def resigned_sentence(entry: dict, names: "Names") -> str:
    """A resignation's log entry (``{"action": "resign"}``, P26, R37) as a sentence."""
    if entry["seat"] == names.reader_seat:
        return _("You resigned.")
    return _("%(name)s resigned.") % {"name": names.person(entry["seat"])}


def resigned_ending(result: dict, names: "Names") -> str:
    """Who resigned, for a finished game's result (its ``resigned`` seats; "" for none)."""
    seats = result.get("resigned") or []
    if not seats:
        return ""
    if names.reader_seat in seats:
        others = [names.person(seat) for seat in seats if seat != names.reader_seat]
        if not others:
            return _("You resigned, so you could not win.")
        return _("You and %(names)s resigned, so none of you could win.") % {
            "names": ", ".join(others)
        }
    return ngettext(
        "%(names)s resigned and could not win.",
        "%(names)s resigned and could not win.",
        len(seats),
    ) % {"names": ", ".join(names.person(seat) for seat in seats)}


class Names:
    """Who sits where, as the reader of a text calls them ("you" for their own seat)."""

    def __init__(
        self, names: list[str], reader_seat: int | None = None, people: list[str] | None = None
    ):
        self.names = names
        self.reader_seat = reader_seat
        # The people's own names, without a seat's note of who plays it (games.seat_names):
        # a sentence that says the note itself ("Bert resigned") reads them.
        self.people = people or names

    def subject(self, seat: int) -> str:
        if seat == self.reader_seat:
            return _("You")
        return self.name(seat)

    def in_sentence(self, seat: int) -> str:
        """The player as a sentence names them after its start: "you" or "Bert"."""
        if seat == self.reader_seat:
            return _("you")
        return self.name(seat)

    def name(self, seat: int) -> str:
        """The player's name, never "you"."""
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return _("Seat %(number)d") % {"number": seat}

    def person(self, seat: int) -> str:
        """The player's own name, without the seat's note ("Bert", not "Bert (resigned…)")."""
        if 0 <= seat < len(self.people):
            return self.people[seat]
        return self.name(seat)

    def possessive(self, seat: int) -> str:
        """The pronoun for a sentence whose subject is this seat: "your" or "their"."""
        return _("your") if seat == self.reader_seat else _("their")

    def owner(self, seat: int) -> str:
        """Whose, standing alone: "your" or "Bert's"."""
        if seat == self.reader_seat:
            return _("your")
        return _("%(name)s's") % {"name": self.subject(seat)}

    def spade(self, seat: int) -> str:
        """Whose spade, as an object of "under": "your spade" or "Bert's spade"."""
        if seat == self.reader_seat:
            return _("your spade")
        return _("%(name)s's spade") % {"name": self.name(seat)}
