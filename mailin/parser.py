"""A move written in an email: the command line of a reply, and the action dict it names.

``command_line(text)`` finds the first line the player wrote above the quoted email
(``text_of_html`` first for an HTML-only email) that is not table talk; ``say_lines(text)``
the table talk: the lines beginning ``say `` (German ``sag ``), each one message;
``parse_move(line, game)`` turns it into
an action dict with the game's own grammar (``GameSpec.mail_grammar``: Piratz's in
``games.kinds.piratz.mail``, Rattenscharf's in ``games.kinds.rattenscharf.mail``) or raises
``MoveParseError`` (``games.grammar``). Whether the move is legal now is the engine's
question, not the parser's.
"""

import html
import re

from games.catalogue import spec_for
from games.grammar import MoveParseError

__all__ = ["MoveParseError", "command_line", "parse_move", "say_lines", "text_of_html"]

# Where the quoted email or a signature begins: nothing the player wrote comes after.
_QUOTE_HEADERS = re.compile(
    r"^(on\b.*\bwrote:?|am\b.*\bschrieb\b.*|.*<[^>]+@[^>]+>\s*(wrote|schrieb).*"
    r"|-+\s*(original message|urspr(ü|ue)ngliche nachricht)\s*-+"
    r"|(from|von):\s.*|_{5,})$",
    re.IGNORECASE,
)
MAX_LINE = 200
# Table talk: "say …" / "sag …" (any case), a space or tab after the word.
_SAY_RE = re.compile(r"^(?:say|sag)[ \t]+(?P<text>.*)$", re.IGNORECASE | re.DOTALL)
# The say-lines of one reply posted at most: each is a message and costs a transaction.
MAX_SAY_LINES = 10
_MAX_QUOTE_HEADER = 500


def text_of_html(markup: str) -> str:
    """The text a reader sees in an HTML-only email, quoted parts (``blockquote``) left out.

    Linear in the length of ``markup``, whatever it holds (it comes from anyone).
    """
    markup = _without_hidden_elements(markup)
    markup = re.sub(r"(?i)<br\s*/?>|</(p|div|li|tr|h\d)\s*>", "\n", markup)
    # [^<>], not [^>]: each "<" without a ">" would otherwise scan to the end of the text.
    return html.unescape(re.sub(r"<[^<>]*>", "", markup))


_HIDDEN_OPENING_RE = re.compile(r"<(script|style|head|blockquote)\b", re.IGNORECASE)
_HIDDEN_CLOSING_RE = {
    name: re.compile(rf"</{name}\s*>", re.IGNORECASE)
    for name in ("script", "style", "head", "blockquote")
}


def _without_hidden_elements(markup: str) -> str:
    """``markup`` with each script, style, head and blockquote element (with what it holds)
    replaced by a line break; an element never closed is left as it is.

    One pass: a regex's lazy ``.*?`` up to a back-referenced closing tag searches the
    rest of the text again for each unclosed opening tag, quadratic in a hostile email.
    Once a closing tag is not found after one opening, none is after any later one.
    """
    kept, position, unclosed = [], 0, set()
    for opening in _HIDDEN_OPENING_RE.finditer(markup):
        name = opening.group(1).lower()
        if opening.start() < position or name in unclosed:
            continue  # inside an element already removed, or never closed
        closing = _HIDDEN_CLOSING_RE[name].search(markup, opening.end())
        if closing is None:
            unclosed.add(name)
            continue
        kept += [markup[position : opening.start()], "\n"]
        position = closing.end()
    kept.append(markup[position:])
    return "".join(kept)


def written_lines(text: str):
    """The lines the player wrote, stripped, blank ones left out: those above the quoted
    email (``> …``, ``On … wrote:``, ``Am … schrieb …:``, an Outlook header block) or a
    signature (``-- ``), where reading stops."""
    for raw in text.splitlines():
        line = raw.strip().lstrip("\ufeff")
        if not line:
            continue
        # _QUOTE_HEADERS backtracks (cubic in a long line): a quote header is far shorter.
        head = line[:_MAX_QUOTE_HEADER]
        if line.startswith((">", "|")) or line in ("--", "-- ") or _QUOTE_HEADERS.match(head):
            return
        yield line


def _say_text(line: str) -> str | None:
    match = _SAY_RE.match(line)
    return None if match is None else match.group("text").strip()


def command_line(text: str) -> str:
    """The first line the player wrote that is not table talk (``say_lines``): not blank,
    not quoted, above any quote or signature; cut to ``MAX_LINE`` characters.

    Empty when there is none: the first written line already begins the quote or a
    signature, or every line written above it is a say-line.
    """
    for line in written_lines(text):
        if _say_text(line) is None:
            return line[:MAX_LINE]
    return ""


def say_lines(text: str) -> list[str]:
    """The table talk of a reply: the text after ``say `` / ``sag `` (any case) of each
    line the player wrote (``written_lines``) that begins so, in order, one message per
    line, at most ``MAX_SAY_LINES`` (later ones are not read). Not checked here: an empty
    or too long one is ``talk.actions.post_message``'s to refuse."""
    found = []
    for line in written_lines(text):
        said = _say_text(line)
        if said is not None:
            found.append(said)
            if len(found) == MAX_SAY_LINES:
                break
    return found


def parse_move(line: str, game: str) -> dict:
    """The action dict ``line`` names in the game ``game`` (its spec's ``mail_grammar``);
    raises ``MoveParseError`` when it names none, ``no_grammar`` for a game that is not
    played by email."""
    grammar = spec_for(game).mail_grammar
    if grammar is None:
        raise MoveParseError("no_grammar")
    return grammar(line)
