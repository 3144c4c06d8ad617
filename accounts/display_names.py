"""Display names players choose: their form, and one name per player whatever its spelling."""

import unicodedata

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from core.errors import ServiceError
from core.text import clean_typed_text

MAX_LENGTH = 40


def name_key(name: str) -> str:
    """What two names that read alike have in common: Unicode compatibility forms folded
    (NFKC: a fullwidth "Anna" is "Anna", the ligature "ﬁ" is "fi"), case folded ("ANNA",
    "anna"; "ß" is "ss"), runs of spaces made one. Empty for an empty name;
    ``User.public_name_key`` stores it for the name a person is shown by."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


def form_problem(name: str) -> str | None:
    """Why ``name`` (already trimmed) cannot be a display name, or None: 1-40 characters on
    one line, no control or invisible characters (the one rule for typed text,
    ``core.text.clean_typed_text``: such characters can make a name look like another, or
    break a line of a page or an email it is shown in), no ``@`` (a name must not pass for
    an address)."""
    try:
        clean_typed_text(name, field_label=_("The display name"), max_length=MAX_LENGTH)
    except ServiceError as refused:
        return refused.detail
    if "@" in name:
        return _("The display name cannot contain @: it must not look like an email address.")
    return None


def taken_problem(name: str, user) -> str | None:
    """Why ``name`` is not ``user``'s to take, or None: another living person is shown by
    a name that reads the same (``name_key``), whether they chose it or it is the one
    derived from their address; or it is the site's name for a deleted account. Checked
    against ``User.public_name_key`` (indexed; unique among the living)."""
    key = name_key(name)
    if key in reserved_keys():
        return _(
            "The display name %(name)r is what the site calls deleted accounts; choose another."
        ) % {"name": name}
    # type(user): accounts.models imports this module (for name_key), so not the reverse.
    others = type(user).objects.filter(public_name_key=key, erased_at=None).exclude(pk=user.pk)
    if others.exists():
        return _("The display name %(name)r is taken; choose another.") % {"name": name}
    return None


def reserved_keys() -> set[str]:
    """The keys of the names nobody may be shown by: "former player", the name of every
    deleted account, in each language of the site."""
    keys = set()
    for code, _label in settings.LANGUAGES:
        with translation.override(code):
            keys.add(name_key(gettext("former player")))
    return keys


def derived_name(user) -> str:
    """The name ``user`` is shown by while they choose none: the first part of their
    address, numbered ("anna 2", "anna 3", ...) when another living person is shown by
    that name already (chosen or derived) or it is reserved, so no two people ever show
    the same name. ``user.derived_name`` is kept while it is still one of these and free:
    a name others know someone by does not change under them. One query."""
    base = user.email.split("@", 1)[0]
    others = type(user).objects.filter(erased_at=None).exclude(pk=user.pk)
    # Every candidate's key starts with the base's (numbers are appended after a space).
    taken = set(
        others.filter(public_name_key__startswith=name_key(base)).values_list(
            "public_name_key", flat=True
        )
    )
    taken |= reserved_keys()
    current = user.derived_name
    if current and name_key(current) not in taken and _numbered_from(current, base):
        return current
    number = 1
    while True:
        candidate = base if number == 1 else f"{base} {number}"
        if name_key(candidate) not in taken:
            return candidate
        number += 1


def _numbered_from(name: str, base: str) -> bool:
    """Is ``name`` ``base`` itself or ``base`` with a number ("anna", "anna 2")?"""
    if name == base:
        return True
    head, _space, number = name.rpartition(" ")
    return head == base and number.isdigit()
