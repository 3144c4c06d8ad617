"""A small reader of gettext .po files, for the tests of the translations (no extra package).

It reads what ``makemessages`` writes: comments and flags (``#,``), ``msgctxt``,
``msgid``, ``msgid_plural``, ``msgstr`` and ``msgstr[n]``, each a run of quoted strings
with C escapes. Obsolete entries (``#~``) are left out.
"""

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class PoEntry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: list[str] = field(default_factory=list)  # one, or one per plural form
    flags: set[str] = field(default_factory=set)

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def untranslated(self) -> bool:
        return not self.msgstr or any(not text for text in self.msgstr)

    @property
    def key(self) -> str:
        """The key gettext stores the entry under in a compiled .mo (context EOT msgid)."""
        return self.msgid if self.msgctxt is None else f"{self.msgctxt}\x04{self.msgid}"


def read_po(path: Path) -> list[PoEntry]:
    """The entries of ``path`` in file order, the header (empty msgid) included first."""
    entries: list[PoEntry] = []
    entry = PoEntry()
    field_name: str | None = None
    started = False

    def finish():
        nonlocal entry, started, field_name
        if started:
            entries.append(entry)
        entry, started, field_name = PoEntry(), False, None

    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            finish()
            continue
        if line.startswith("#~"):
            continue
        if line.startswith("#,"):
            if started and field_name is not None and field_name.startswith("msgstr"):
                finish()
            entry.flags.update(flag.strip() for flag in line[2:].split(","))
            continue
        if line.startswith("#"):
            continue
        if line.startswith('"'):
            _append(entry, field_name, ast.literal_eval(line))
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and started and field_name.startswith("msgstr"):
            finish()  # entries not separated by a blank line
        started = True
        field_name = keyword
        if keyword.startswith("msgstr"):
            entry.msgstr.append("")
        _append(entry, field_name, ast.literal_eval(rest))
    finish()
    return entries


def _append(entry: PoEntry, field_name: str | None, text: str) -> None:
    if field_name is None:
        raise ValueError(f"a string outside any field: {text!r}")
    if field_name.startswith("msgstr"):
        entry.msgstr[-1] += text
    elif field_name == "msgid":
        entry.msgid += text
    elif field_name == "msgid_plural":
        entry.msgid_plural = (entry.msgid_plural or "") + text
    elif field_name == "msgctxt":
        entry.msgctxt = (entry.msgctxt or "") + text
    else:
        raise ValueError(f"unknown .po field {field_name!r}")


GERMAN_PO = Path(__file__).resolve().parent.parent / "locale" / "de" / "LC_MESSAGES" / "django.po"
# What a msgid's literal text is split at: placeholders, tags and line breaks.
_SPLIT = r"%\(\w+\)[sdr]|\{\w+\}|<[^>]*>|\n|[.:;,()]"


def english_left_in(text: str, entries: list[PoEntry], *, min_length: int = 14) -> list[str]:
    """Pieces of English msgids (of ``entries``) found verbatim in ``text``.

    Each msgid (and plural) is cut at its placeholders, tags and punctuation; every piece
    of at least ``min_length`` characters with a space in it that its translation does not
    also contain must not appear in a text rendered in that translation's language.
    """
    found = []
    for entry in entries:
        if not entry.msgid:
            continue
        translated = " ".join(entry.msgstr)
        for source in filter(None, [entry.msgid, entry.msgid_plural]):
            for piece in re.split(_SPLIT, source):
                piece = piece.strip()
                if len(piece) < min_length or " " not in piece or piece in translated:
                    continue
                if piece in text:
                    found.append(piece)
    return sorted(set(found))
