"""The one rule for text a person types that others read (core.text.clean_typed_text):
names and reasons on one line, messages and notes on several; no database."""

import pytest

from core.errors import ServiceError
from core.text import clean_typed_text


def one_line(text, **options):
    return clean_typed_text(text, field_label="The reason", max_length=20, **options)


def lines(text, **options):
    return clean_typed_text(text, field_label="A message", max_length=20, multiline=True, **options)


def refusal(call, text) -> str:
    with pytest.raises(ServiceError) as refused:
        call(text)
    assert refused.value.code == "invalid"
    return refused.value.detail


# Refused wherever text is typed: they break a terminal, a log line or a page, or show
# text in another order than it is stored.
ALWAYS_REFUSED = [
    "esc\u001b[31m",  # an escape sequence
    "bell\u0007",
    "nul\u0000",
    "del\u007f",
    "c1\u009b",  # the C1 control sequence introducer
    "\ud800lone",  # a lone surrogate (JSON can carry one)
    "\u202eevil",  # right-to-left override
    "\u2066isolate\u2069",
]


@pytest.mark.parametrize("text", ALWAYS_REFUSED)
def test_control_characters_are_refused_on_one_line(text):
    assert refusal(one_line, text) == "The reason cannot contain control or invisible characters."


@pytest.mark.parametrize("text", ALWAYS_REFUSED)
def test_control_characters_are_refused_on_several_lines(text):
    assert refusal(lines, text) == "A message cannot contain control characters."


@pytest.mark.parametrize(
    "text",
    ["zero\u200bwidth", "An\u200dna", "soft\u00adhyphen", "mark\u200f", "tab\there", "\ue000"],
)
def test_one_line_refuses_invisible_characters_and_tabs(text):
    assert refusal(one_line, text) == "The reason cannot contain control or invisible characters."


@pytest.mark.parametrize("text", ["two\nlines", "two\r\nlines", "two\u2028lines", "nel\u0085x"])
def test_one_line_refuses_a_line_break_of_any_kind(text):
    assert refusal(one_line, text) == "The reason must be one line."


def test_several_lines_keep_line_breaks_and_tabs_made_plain():
    assert lines("  a\r\nb\rc\u2028d\te ") == "a\nb\nc\nd\te"


def test_several_lines_keep_the_joiners_emoji_are_written_with():
    pirate_flag = "\U0001f3f4\u200d\u2620\ufe0f"
    assert lines(f"Ahoy {pirate_flag}") == f"Ahoy {pirate_flag}"


def test_text_is_trimmed_and_counted_after():
    assert one_line("  " + "x" * 20 + "\n") == "x" * 20
    assert refusal(one_line, "x" * 21) == (
        "The reason can be at most 20 characters; this one has 21."
    )


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_blank_is_refused_when_required(text):
    assert refusal(one_line, text) == "The reason cannot be empty."


@pytest.mark.parametrize("text", [None, "", "  "])
def test_blank_or_none_is_empty_when_optional(text):
    assert one_line(text, required=False) == ""


@pytest.mark.parametrize("text", [0, ["a"], b"bytes", None])
def test_anything_but_a_string_is_refused(text):
    assert refusal(one_line, text) == "The reason must be text."


def test_any_script_and_emoji_pass_on_one_line():
    assert one_line("Ананас 🍍 ß 漢字") == "Ананас 🍍 ß 漢字"
