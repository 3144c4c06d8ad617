"""The command line of a reply and the move it names, in English and German."""

import pytest

from mailin.parser import MoveParseError, command_line, parse_move, text_of_html

MOVES = [
    ("reveal", {"action": "reveal"}),
    ("Reveal.", {"action": "reveal"}),
    ("aufdecken", {"action": "reveal"}),
    ("AUFDECKEN!", {"action": "reveal"}),
    ("end", {"action": "end_turn"}),
    ("End turn", {"action": "end_turn"}),
    ("ende", {"action": "end_turn"}),
    ("Zug beenden", {"action": "end_turn"}),
    ("pass coins bury 12", {"action": "pass", "treasure": "coins", "bury": 12}),
    ("Pass Coins, bury #12", {"action": "pass", "treasure": "coins", "bury": 12}),
    ("pass coins", {"action": "pass", "treasure": "coins", "bury": None}),
    ("pass ring bury 3", {"action": "pass", "treasure": "rings", "bury": 3}),
    ("aussteigen Münzen verbuddeln 12", {"action": "pass", "treasure": "coins", "bury": 12}),
    ("Aussteigen Muenzen verbuddeln 12", {"action": "pass", "treasure": "coins", "bury": 12}),
    ("aussteigen MÜNZEN", {"action": "pass", "treasure": "coins", "bury": None}),
    ("aussteigen Munzen", {"action": "pass", "treasure": "coins", "bury": None}),
    ("steige aus Kelche vergrabe 4", {"action": "pass", "treasure": "goblets", "bury": 4}),
    ("aussteigen Edelsteine verbuddeln 9", {"action": "pass", "treasure": "gems", "bury": 9}),
    ("aussteigen Perlen", {"action": "pass", "treasure": "pearls", "bury": None}),
    ("aussteigen Muscheln verbuddeln 1", {"action": "pass", "treasure": "shells", "bury": 1}),
    ("aussteigen Ringe", {"action": "pass", "treasure": "rings", "bury": None}),
    ("keep 3 bury 17", {"action": "resolve_alarm", "keep": 3, "bury": 17}),
    ("behalten 3 verbuddeln 17", {"action": "resolve_alarm", "keep": 3, "bury": 17}),
    ("Behalte #3 vergrabe #17", {"action": "resolve_alarm", "keep": 3, "bury": 17}),
    ("keep 3", {"action": "resolve_alarm", "keep": 3, "bury": None}),
]


@pytest.mark.parametrize(("line", "action"), MOVES)
def test_parse_move_names_the_action(line, action):
    assert parse_move(line, "piratz") == action


@pytest.mark.parametrize(
    ("line", "code", "word"),
    [
        ("", "empty", ""),
        ("Hello there", "unknown_command", "hello"),
        ("pass", "missing_treasure", ""),
        ("pass gold bury 3", "unknown_treasure", "gold"),
        ("aussteigen Gold", "unknown_treasure", "gold"),
        ("keep", "missing_card", ""),
        ("keep three", "bad_card", "three"),
        ("pass coins bury", "missing_card", ""),
        ("pass coins bury twelve", "bad_card", "twelve"),
        ("reveal please", "unexpected_words", "please"),
        ("pass coins bury 12 now", "unexpected_words", "now"),
    ],
)
def test_parse_move_says_why_a_line_names_no_move(line, code, word):
    with pytest.raises(MoveParseError) as raised:
        parse_move(line, "piratz")
    assert (raised.value.code, raised.value.word) == (code, word)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("\n\n  reveal  \n\nOn Mon, Piratz wrote:\n> Your turn", "reveal"),
        ("pass coins bury 12\n-- \nAnna\n", "pass coins bury 12"),
        ("> reveal\n> old text", ""),
        ("On Mon, 23 Nov 2026, Piratz <play@x.example> wrote:\n> reveal", ""),
        ("Am 23.11.2026 um 10:00 schrieb Piratz:\n> aufdecken", ""),
        ("-- \nAnna", ""),
        ("-----Original Message-----\nFrom: Piratz\nreveal", ""),
        ("", ""),
    ],
)
def test_command_line_is_the_first_line_written_above_the_quote(text, line):
    assert command_line(text) == line


def test_html_only_mail_is_read_without_its_quote():
    html = (
        "<html><head><style>p{}</style></head><body><div>aufdecken</div>"
        "<blockquote><p>pass coins bury 12</p></blockquote></body></html>"
    )
    text = text_of_html(html)
    assert command_line(text) == "aufdecken"
    assert "pass coins" not in text
