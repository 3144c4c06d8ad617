"""What the first line of a reply may say, for any game: the error a grammar raises when
it names no move, and the word helpers the games' grammars (``GameSpec.mail_grammar``) share.

Pure Python: the games' grammars are plain functions of a line of text.
"""

import unicodedata


class MoveParseError(ValueError):
    """The line names no move. ``code`` says why; ``word`` is the word at fault, if any;
    ``detail`` is the game's own sentence for its own codes (``%(word)s`` filled in), else
    None and ``mailin.answers.parse_error_detail`` says it.

    Codes every grammar may use: ``empty`` (nothing written above the quote),
    ``unknown_command``, ``unexpected_words``; ``no_grammar``: the game is not played by
    email. A game's own codes come with their ``detail``.
    """

    def __init__(self, code: str, word: str = "", detail=None):
        super().__init__(f"{code}: {word}" if word else code)
        self.code = code
        self.word = word
        self.detail = detail


def normalise(word: str) -> str:
    """Lower case, umlauts spelt out (``ü`` as ``ue``), other diacritics dropped."""
    word = word.lower()
    for umlaut, spelt in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        word = word.replace(umlaut, spelt)
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(char for char in decomposed if not unicodedata.combining(char))
