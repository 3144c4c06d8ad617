"""What a reply may say, in German as in English (issue 24): every line of the reply help
(the turn email's note, the answer's "what you may write now") is translated, and lines
that say different things in English say different things in German too."""

import re

import pytest
from django.utils import translation

from games.describe import generic, words_for
from games.kinds.piratz import rules as piratz
from games.kinds.piratz.mail import piratz_hints
from tests.rules.conftest import _stage


def both(say) -> tuple[list[str], list[str]]:
    """``say()`` (a list of lines) in English and in German."""
    with translation.override("en"):
        english = say()
    with translation.override("de"):
        german = say()
    return english, german


def reply_notes() -> list[str]:
    return [
        words_for("piratz").email_notes()["reply"],
        words_for("rattenscharf").email_notes()["reply"],
        generic.email_notes()["reply"],
    ]


@pytest.mark.parametrize(
    "stage",
    [
        {"face_up": (12, 44), "phase": "decide"},  # three pass lines
        {"face_up": (44,), "phase": "decide"},
        {"face_up": ()},
        {"face_up": (1, 44, 2), "phase": "alarm"},
    ],
)
def test_the_hints_read_as_apart_in_german_as_in_english(stage):
    view = piratz.view(_stage(2, **stage), 0)
    english, german = both(lambda: piratz_hints(view))
    assert len(german) == len(english)
    assert len(set(german)) == len(set(english)) == len(english)
    for line_en, line_de in zip(english, german, strict=True):
        assert line_en != line_de, line_en  # translated
        # What tells a line from the next (its treasures first, its cards) is there in
        # German too.
        assert line_en.split(": ", 1)[0].count(",") == line_de.split(": ", 1)[0].count(",")
        assert re.findall(r"\d+", line_en) == re.findall(r"\d+", line_de), line_en


def test_the_turn_emails_reply_notes_are_translated_each_as_its_english_says():
    english, german = both(reply_notes)
    assert len(set(english)) == len(set(german)) == 3
    assert not set(english) & set(german)
    piratz_de, rattenscharf_de, generic_de = german
    assert "aufdecken, ende, aussteigen Münzen verbuddeln 12, behalten 3" in piratz_de
    assert "„lege 17 auf 2,0 waagerecht“" in rattenscharf_de and "gedreht" in rattenscharf_de
    assert generic_de == "Oder antworte auf diese E-Mail mit deinem Zug in der ersten Zeile."
