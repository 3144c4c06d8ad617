"""A move written in an email: the command line of a reply, and the action dict it names.

Pure functions, no Django: ``command_line(text)`` finds the first line the player wrote
above the quoted email; ``parse_move(line)`` turns it into a Piratz action dict
(CONTRACT.md §1) or raises ``MoveParseError``. English and German, any case, with or
without diacritics (``Münzen``, ``Muenzen``, ``Munzen``); card numbers as ``12`` or
``#12``::

    reveal | aufdecken                          {"action": "reveal"}
    end | end turn | ende | zug beenden         {"action": "end_turn"}
    pass coins bury 12 | aussteigen Münzen verbuddeln 12
                                                {"action": "pass", "treasure": "coins", "bury": 12}
    pass coins | aussteigen Münzen              ... "bury": None (when nothing can be buried)
    keep 3 bury 17 | behalten 3 verbuddeln 17   {"action": "resolve_alarm", "keep": 3, "bury": 17}

A Rattenscharf move (R28) is a strip, the x,y of its left or top cell, the orientation and
an optional flip, with or without words around them::

    place 17 at 2,0 h | 17 2 0 v flip | lege 17 auf 2,0 waagerecht gedreht
        {"action": "place", "strip": 17, "x": 2, "y": 0, "orientation": "h", "flip": False}

``parse_move(line, game)`` reads the grammar of the game named ``game`` (``GRAMMARS``).
Whether the move is legal now is the engine's question, not the parser's.
"""

import html
import re
import unicodedata

# Every word in its normalised form (``_normalise``): lower case, umlauts as ae/oe/ue/ss.
_REVEAL = {"reveal", "aufdecken", "decke", "aufdecke"}
_END = {"end", "ende", "beenden", "fertig"}
_END_SECOND = {"turn", "zug"}  # "end turn", "zug beenden"
_PASS = {"pass", "aussteigen", "passen", "steige", "passe"}
_PASS_FILLER = {"aus"}  # "steige aus Münzen"
_KEEP = {"keep", "behalten", "behalte"}
_BURY = {"bury", "verbuddeln", "verbuddle", "vergraben", "vergrabe"}
_TREASURES = {
    "rings": {"rings", "ring", "ringe"},
    "coins": {"coins", "coin", "muenzen", "muenze", "munzen", "munze"},
    "pearls": {"pearls", "pearl", "perlen", "perle"},
    "gems": {"gems", "gem", "edelsteine", "edelstein"},
    "goblets": {"goblets", "goblet", "kelche", "kelch"},
    "shells": {"shells", "shell", "muscheln", "muschel"},
}
_TREASURE_OF = {word: treasure for treasure, words in _TREASURES.items() for word in words}
_CARD_RE = re.compile(r"#?(\d{1,3})")

# Where the quoted email or a signature begins: nothing the player wrote comes after.
_QUOTE_HEADERS = re.compile(
    r"^(on\b.*\bwrote:?|am\b.*\bschrieb\b.*|.*<[^>]+@[^>]+>\s*(wrote|schrieb).*"
    r"|-+\s*(original message|urspr(ü|ue)ngliche nachricht)\s*-+"
    r"|(from|von):\s.*|_{5,})$",
    re.IGNORECASE,
)
MAX_LINE = 200
_MAX_QUOTE_HEADER = 500


class MoveParseError(ValueError):
    """The line names no move. ``code`` says why; ``word`` is the word at fault, if any.

    Codes: ``empty`` (nothing written above the quote), ``unknown_command``,
    ``missing_treasure``, ``unknown_treasure``, ``missing_card``, ``bad_card``,
    ``unexpected_words``; Rattenscharf's ``missing_strip``, ``missing_position`` and
    ``missing_orientation``.
    """

    def __init__(self, code: str, word: str = ""):
        super().__init__(f"{code}: {word}" if word else code)
        self.code = code
        self.word = word


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


def command_line(text: str) -> str:
    """The first line the player wrote: not blank, not quoted, above any quote or signature.

    Empty when the first written line already begins the quote (``> …``, ``On … wrote:``,
    ``Am … schrieb …:``, an Outlook header block) or a signature (``-- ``).
    """
    for raw in text.splitlines():
        line = raw.strip().lstrip("\ufeff")
        if not line:
            continue
        # _QUOTE_HEADERS backtracks (cubic in a long line): a quote header is far shorter.
        head = line[:_MAX_QUOTE_HEADER]
        if line.startswith((">", "|")) or line in ("--", "-- ") or _QUOTE_HEADERS.match(head):
            return ""
        return line[:MAX_LINE]
    return ""


def parse_move(line: str, game: str = "piratz") -> dict:
    """The action dict ``line`` names in the game named ``game``; raises ``MoveParseError``
    when it names none."""
    grammar = GRAMMARS.get(game)
    if grammar is None:
        raise MoveParseError("unknown_command", game)
    return grammar(line)


def parse_piratz_move(line: str) -> dict:
    """A Piratz action dict (CONTRACT.md section 1) from ``line``."""
    words = [_normalise(word).strip(".!?") for word in re.split(r"[\s,;:]+", line)]
    words = [word for word in words if word]
    if not words:
        raise MoveParseError("empty")
    verb, rest = words[0], words[1:]
    if verb in _REVEAL:
        action = {"action": "reveal"}
    elif verb in _END:
        rest = rest[1:] if rest[:1] and rest[0] in _END_SECOND else rest
        action = {"action": "end_turn"}
    elif verb in _END_SECOND and rest[:1] and rest[0] in _END:  # "Zug beenden"
        rest = rest[1:]
        action = {"action": "end_turn"}
    elif verb in _PASS:
        rest = rest[1:] if rest[:1] and rest[0] in _PASS_FILLER else rest
        if not rest:
            raise MoveParseError("missing_treasure")
        if rest[0] not in _TREASURE_OF:
            raise MoveParseError("unknown_treasure", rest[0])
        treasure = _TREASURE_OF[rest[0]]
        bury, rest = _bury(rest[1:])
        action = {"action": "pass", "treasure": treasure, "bury": bury}
    elif verb in _KEEP:
        if not rest:
            raise MoveParseError("missing_card")
        keep = _card(rest[0])
        bury, rest = _bury(rest[1:])
        action = {"action": "resolve_alarm", "keep": keep, "bury": bury}
    else:
        raise MoveParseError("unknown_command", words[0])
    if rest:
        raise MoveParseError("unexpected_words", rest[0])
    return action


def _bury(words: list[str]) -> tuple[int | None, list[str]]:
    """``bury N`` at the start of ``words``: (N, what follows); (None, words) without it."""
    if not words or words[0] not in _BURY:
        return None, words
    if len(words) < 2:
        raise MoveParseError("missing_card")
    return _card(words[1]), words[2:]


def _card(word: str) -> int:
    match = _CARD_RE.fullmatch(word)
    if match is None:
        raise MoveParseError("bad_card", word)
    return int(match.group(1))


def _normalise(word: str) -> str:
    """Lower case, umlauts spelt out (``ü`` as ``ue``), other diacritics dropped."""
    word = word.lower()
    for umlaut, spelt in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        word = word.replace(umlaut, spelt)
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(char for char in decomposed if not unicodedata.combining(char))


# --- Rattenscharf (R28) ------------------------------------------------------------------

_PLACE = {"place", "lay", "put", "lege", "legen", "platziere", "platzieren", "setze"}
_STRIP = {"strip", "streifen"}
_AT = {"at", "on", "to", "auf", "an", "bei", "nach"}
_HORIZONTAL = {"h", "horizontal", "horizontally", "across", "w", "waagerecht", "waagrecht", "quer"}
_VERTICAL = {"v", "vertical", "vertically", "down", "s", "senkrecht", "vertikal", "hochkant"}
_FLIP = {
    "flip",
    "flipped",
    "reversed",
    "reverse",
    "turned",
    "gedreht",
    "umgedreht",
    "drehen",
    "gewendet",
}
# A minus as some mail clients type it: U+2212 (minus sign) or U+2013 (en dash).
_MINUSES = str.maketrans({"\u2212": "-", "\u2013": "-"})
_NUMBER_RE = re.compile(r"[-+]?\d{1,3}")


def parse_placement(line: str) -> dict:
    """A Rattenscharf ``place`` action (R28) from ``line``: the first number is the strip,
    the next two are x and y (``2,0``, ``(2, 0)``, ``-1 2``), then ``h``/``v`` (or their
    words) and, anywhere after the numbers, an optional flip word."""
    text = re.sub(r"[(),;:]", " ", line.translate(_MINUSES))
    words = [_normalise(word).strip(".!?") for word in text.split()]
    words = [word.lstrip("#") for word in words if word]
    if not words:
        raise MoveParseError("empty")
    if words[0] in _PLACE:
        words = words[1:]
    if words[:1] and words[0] in _STRIP:
        words = words[1:]
    if not words or not _NUMBER_RE.fullmatch(words[0]):
        if words and words[0].isalpha():
            raise MoveParseError("unknown_command", words[0])
        raise MoveParseError("missing_strip")
    strip = _number(words[0])
    rest = words[1:]
    if rest[:1] and rest[0] in _AT:
        rest = rest[1:]
    if len(rest) < 2 or not all(_NUMBER_RE.fullmatch(word) for word in rest[:2]):
        raise MoveParseError("missing_position")
    x, y = _number(rest[0]), _number(rest[1])
    orientation, flip = None, False
    for word in rest[2:]:
        if word in _HORIZONTAL and orientation is None:
            orientation = "h"
        elif word in _VERTICAL and orientation is None:
            orientation = "v"
        elif word in _FLIP and not flip:
            flip = True
        else:
            raise MoveParseError("unexpected_words", word)
    if orientation is None:
        raise MoveParseError("missing_orientation")
    return {
        "action": "place",
        "strip": strip,
        "x": x,
        "y": y,
        "orientation": orientation,
        "flip": flip,
    }


def _number(word: str) -> int:
    return int(word)


# Game name -> the function that reads a move of that game from a line.
GRAMMARS = {"piratz": parse_piratz_move, "rattenscharf": parse_placement}
