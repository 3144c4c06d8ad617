"""A toy third game for tests (tests/games/test_third_game.py): tic-tac-toe with only the
required pieces of a spec, and a one-line mail grammar; everything else falls back."""

from games.catalogue import GameSpec
from games.grammar import MoveParseError

from . import rules


def parse_cell(line: str) -> dict:
    """A reply's first line "1".."9" as the mark of that cell."""
    word = line.strip().split()[0] if line.strip() else ""
    if not word:
        raise MoveParseError("empty")
    if word not in {str(n) for n in range(1, 10)}:
        raise MoveParseError("unknown_command", word)
    return {"action": "mark", "cell": int(word)}


SPEC = GameSpec(kind="tictactoe", rules=rules, mail_grammar=parse_cell)
