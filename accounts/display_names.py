"""Display names players choose: their form, and one name per player whatever its spelling."""

import unicodedata

from django.utils.translation import gettext as _

MAX_LENGTH = 40


def name_key(name: str) -> str:
    """What two names that read alike have in common: Unicode compatibility forms folded
    (NFKC: a fullwidth "Anna" is "Anna", the ligature "ﬁ" is "fi"), case folded ("ANNA",
    "anna"; "ß" is "ss"), runs of spaces made one. Empty for an empty name;
    ``User.display_name_key`` stores it."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


def _is_hidden_or_control(char: str) -> bool:
    # Category C: control characters (Cc), invisible formatting such as zero-width joiners
    # and right-to-left overrides (Cf), lone surrogates (Cs), private and unassigned code
    # points (Co, Cn); and line and paragraph separators. Each can make a name look like
    # another, or break a line of a page or an email it is shown in.
    return unicodedata.category(char)[0] == "C" or unicodedata.category(char) in ("Zl", "Zp")


def form_problem(name: str) -> str | None:
    """Why ``name`` (already trimmed) cannot be a display name, or None: 1-40 characters,
    no ``@`` (a name must not pass for an address), no control or invisible characters."""
    if not name:
        return _("The display name cannot be empty.")
    if len(name) > MAX_LENGTH:
        return _("The display name must be at most %(max)d characters.") % {"max": MAX_LENGTH}
    if "@" in name:
        return _("The display name cannot contain @: it must not look like an email address.")
    if any(_is_hidden_or_control(char) for char in name):
        return _("The display name cannot contain control or invisible characters.")
    return None


def taken_problem(name: str, user) -> str | None:
    """Why ``name`` is not ``user``'s to take, or None: another person's display name
    reads the same (``name_key``). Checked against the names chosen so far (indexed)."""
    key = name_key(name)
    # type(user): accounts.models imports this module (for name_key), so not the reverse.
    if type(user).objects.filter(display_name_key=key).exclude(pk=user.pk).exists():
        return _("The display name %(name)r is taken; choose another.") % {"name": name}
    return None
