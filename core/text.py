"""The one rule for text a person types that others read: names, reasons, notes, table talk."""

import unicodedata

from django.utils.translation import gettext as _

from core.errors import ServiceError

# Line ends as people's systems write them. NEL and the Unicode line and paragraph
# separators break a line in some readers (a chat, a mail program), so they count as line
# breaks: stored as "\n" where lines are allowed, refused where they are not.
_LINE_ENDS = ("\r\n", "\r", "\x85", "\u2028", "\u2029")
# The bidirectional embeddings, overrides and isolates: they show text in another order
# than it is stored ("moc.elpmaxe" reads as "example.com"), so words can pass for others.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean_typed_text(
    text,
    *,
    field_label: str,
    max_length: int,
    multiline: bool = False,
    required: bool = True,
) -> str:
    """``text`` as stored: line ends made ``\\n``, trimmed. Every name, reason, note and
    message a person types for others to read (a page, an email, a chat post) comes
    through here, whichever door it takes.

    Refused with ``ServiceError("invalid")`` and a sentence that starts with
    ``field_label`` (translated, the subject of the sentence: "A message", "The
    reason"): not a string; empty when ``required`` (None or blank is ``""`` otherwise);
    over ``max_length`` characters; a line break unless ``multiline``; and characters that
    could break or disguise what is shown around it:

    - always: control characters (C0, DEL, C1), lone surrogates (JSON can carry them) and
      the bidirectional overrides and isolates;
    - one line (names, reasons): anything invisible too, tabs, zero-width characters and
      joiners, direction marks, private-use and unassigned code points, as a display name
      must not look like another;
    - several lines (messages, notes): line breaks and tabs are text, and so are the
      invisible joiners emoji and some scripts are written with.
    """
    if text is None and not required:
        return ""
    if not isinstance(text, str):
        raise ServiceError("invalid", _("%(field)s must be text.") % {"field": field_label})
    for line_end in _LINE_ENDS:
        text = text.replace(line_end, "\n")
    text = text.strip()
    if not text:
        if not required:
            return ""
        raise ServiceError("invalid", _("%(field)s cannot be empty.") % {"field": field_label})
    if len(text) > max_length:
        raise ServiceError(
            "invalid",
            _("%(field)s can be at most %(max)d characters; this one has %(length)d.")
            % {"field": field_label, "max": max_length, "length": len(text)},
        )
    if not multiline and "\n" in text:
        raise ServiceError("invalid", _("%(field)s must be one line.") % {"field": field_label})
    if multiline:
        if any(_breaks_text(char) for char in text):
            raise ServiceError(
                "invalid",
                _("%(field)s cannot contain control characters.") % {"field": field_label},
            )
    elif any(_breaks_text(char) or unicodedata.category(char)[0] == "C" for char in text):
        raise ServiceError(
            "invalid",
            _("%(field)s cannot contain control or invisible characters.") % {"field": field_label},
        )
    return text


def _breaks_text(char: str) -> bool:
    # Line breaks and tabs are text on several lines; one line refuses them by category (Cc).
    if char in "\n\t":
        return False
    return unicodedata.category(char) in ("Cc", "Cs") or char in _BIDI_CONTROLS
