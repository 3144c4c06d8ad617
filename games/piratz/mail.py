"""Piratz by email: the first line of a reply as an action (CONTRACT section 1), and what
the player may write now.

English and German, any case, with or without diacritics (``Münzen``, ``Muenzen``,
``Munzen``); card numbers as ``12`` or ``#12``::

    reveal | aufdecken                          {"action": "reveal"}
    end | end turn | ende | zug beenden         {"action": "end_turn"}
    pass coins bury 12 | aussteigen Münzen verbuddeln 12
                                                {"action": "pass", "treasure": "coins", "bury": 12}
    pass coins | aussteigen Münzen              ... "bury": None (when nothing can be buried)
    keep 3 bury 17 | behalten 3 verbuddeln 17   {"action": "resolve_alarm", "keep": 3, "bury": 17}
"""

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.grammar import MoveParseError
from games.grammar import normalise as _normalise
from games.piratz.words import treasure_name

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


# This grammar's own refusals, as the answer says them (``MoveParseError.detail``).
PARSE_ERRORS = {
    "missing_treasure": gettext_lazy(
        "Name the treasure type you pass with, as in “pass coins bury 12”."
    ),
    "unknown_treasure": gettext_lazy("“%(word)s” is not a treasure type."),
    "missing_card": gettext_lazy("A card number is missing, as in “keep 3 bury 17”."),
    "bad_card": gettext_lazy("“%(word)s” is not a card number."),
}


def parse_move(line: str) -> dict:
    """A Piratz action dict from ``line`` (``GameSpec.mail_grammar``); ``MoveParseError``
    when it names none."""
    try:
        return parse_piratz_move(line)
    except MoveParseError as error:
        error.detail = PARSE_ERRORS.get(error.code)
        raise


def parse_piratz_move(line: str) -> dict:
    """A Piratz action dict (CONTRACT.md section 1) from ``line``."""
    words = [_normalise(word).strip(".!?") for word in re.split(r"[\s,;:]+", line)]
    words = [word for word in words if word]
    if not words:
        raise MoveParseError("empty")
    verb, rest = words[0], words[1:]
    action: dict[str, str | int | None]
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


def piratz_hints(view: dict) -> list[str]:
    """Piratz: reveal, end, the passes and rat alerts ``view`` allows.

    Every form a line shows is legal as written, and every legal action is on a line. A
    pass or a kept rat buries one of the cards left face up, and must, or buries none when
    none is left (rules P13; ``games.rules.piratz.engine._check_bury``): so a treasure is
    written either ``pass <treasure>`` or ``pass <treasure> bury <card>``, depending on
    what its own pass leaves. Treasures that leave the same cards share a line; cards are
    numbered and ordered as the table's face-up row shows them.
    """
    legal = view["legal_actions"]
    kinds = {action["action"] for action in legal}
    hints = []
    if "reveal" in kinds:
        hints.append(_("“reveal”: turn up the top card of the draw pile"))
    if "end_turn" in kinds:
        hints.append(_("“end”: end your turn"))
    # Treasure -> its bury choices, then the treasures sharing a tuple of choices.
    buries_of: dict[str, list] = {}
    for action in legal:
        if action["action"] == "pass":
            buries_of.setdefault(action["treasure"], []).append(action["bury"])
    groups: dict[tuple, list[str]] = {}
    for treasure, buries in buries_of.items():
        groups.setdefault(tuple(buries), []).append(treasure)
    for choices, treasures in groups.items():
        names = ", ".join(treasure_name(treasure) for treasure in treasures)
        cards = _card_list(choices)
        if None in choices:
            hints.append(
                _(
                    "“pass <treasure>”: take that treasure's cards; no face-up card is "
                    "left, so you bury none (treasures: %(names)s)"
                )
                % {"names": names}
            )
        if cards:
            hints.append(
                _(
                    "“pass <treasure> bury <card>”: take that treasure's cards; you must "
                    "then bury one of the cards left face up (treasures: %(names)s; "
                    "cards: %(cards)s)"
                )
                % {"names": names, "cards": cards}
            )
    alarms: dict[int, list] = {}
    for action in legal:
        if action["action"] == "resolve_alarm":
            alarms.setdefault(action["keep"], []).append(action["bury"])
    for keep, buries in sorted(alarms.items()):
        cards = _card_list(buries)
        if None in buries:
            hints.append(
                _("“keep %(keep)d”: keep rat %(keep)d; no face-up card is left, so you bury none")
                % {"keep": keep}
            )
        if cards:
            hints.append(
                _("“keep %(keep)d bury <card>”: keep rat %(keep)d (cards to bury: %(cards)s)")
                % {"keep": keep, "cards": cards}
            )
    return hints


def _card_list(buries) -> str:
    """The card numbers among ``buries`` (``None``: no card), in their order: ``"12, 17"``."""
    return ", ".join(str(card) for card in buries if card is not None)
