"""Piratz by email: a reply's first line as an action (docs/api.md "The engine's entry points"), and
what the player may write now.

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
from games.kinds.piratz.words import treasure_name

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
    """A Piratz action dict (docs/api.md "The engine's entry points") from ``line``."""
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
    none is left (rules P13; ``games.kinds.piratz.rules.engine._check_bury``): so a treasure is
    written either ``pass <treasure>`` or ``pass <treasure> bury <card>``, depending on
    what its own pass leaves. Passes are one line saying the form(s) and what a pass does,
    then one line per set of bury choices that *starts* with its treasures (``Rings,
    pearls or shells: bury 12 or 44, as in “pass rings bury 12”``), so lines that differ
    differ at once (issue 24). Cards are numbered and ordered as the face-up row shows them.
    """
    legal = view["legal_actions"]
    kinds = {action["action"] for action in legal}
    hints = []
    if "reveal" in kinds:
        hints.append(_("“reveal”: turn up the top card of the draw pile"))
    if "end_turn" in kinds:
        hints.append(_("“end”: end your turn"))
    hints += _pass_hints(legal)
    alarms: dict[int, list] = {}
    for action in legal:
        if action["action"] == "resolve_alarm":
            alarms.setdefault(action["keep"], []).append(action["bury"])
    for keep, buries in sorted(alarms.items()):
        cards = _either([str(card) for card in buries if card is not None])
        if None in buries:
            hints.append(
                _("“keep %(keep)d”: keep rat %(keep)d; no face-up card is left, so you bury none")
                % {"keep": keep}
            )
        if cards:
            hints.append(
                _("“keep %(keep)d bury <card>”: keep rat %(keep)d, then bury %(cards)s")
                % {"keep": keep, "cards": cards}
            )
    return hints


def _pass_hints(legal: list[dict]) -> list[str]:
    """The pass lines of ``piratz_hints``: the form and what it does once, then a line per
    set of bury choices, treasures first (P1 order), each with one move to copy."""
    buries_of: dict[str, list] = {}
    for action in legal:
        if action["action"] == "pass":
            buries_of.setdefault(action["treasure"], []).append(action["bury"])
    if not buries_of:
        return []
    # Treasures sharing a tuple of choices; a pass leaving no card has the one choice None.
    groups: dict[tuple, list[str]] = {}
    for treasure, buries in buries_of.items():
        groups.setdefault(tuple(buries), []).append(treasure)
    with_none = any(None in choices for choices in groups)
    with_card = any(card is not None for choices in groups for card in choices)
    if not with_none:
        header = _(
            "“pass <treasure> bury <card>”: take the face-up cards showing that treasure, "
            "then bury one of the cards left face up under your spade."
        )
    elif not with_card:
        header = _(
            "“pass <treasure>”: take the face-up cards showing that treasure; no card is "
            "left face up, so you bury none."
        )
    else:
        header = _(
            "“pass <treasure> bury <card>”: take the face-up cards showing that treasure, "
            "then bury one of the cards left face up under your spade, or write just "
            "“pass <treasure>” when none is left."
        )
    # The choices differ by treasure, or (one group: every treasure) do not.
    # (Outside the f-string: xgettext does not read calls inside one.)
    lead = _("By treasure:") if len(groups) > 1 else _("Any treasure:")
    hints = [f"{header} {lead}"]
    for choices, treasures in groups.items():
        names = _either([treasure_name(treasure) for treasure in treasures])
        names = names[:1].upper() + names[1:]
        first = treasure_name(treasures[0])
        cards = [card for card in choices if card is not None]
        if None in choices:
            line = (
                _("%(treasures)s: bury none, as in “%(move)s”")
                if len(treasures) > 1
                else _("%(treasures)s: bury none, so write “%(move)s”")
            )
            move = _("pass %(treasure)s") % {"treasure": first}
            hints.append(line % {"treasures": names, "move": move})
        if cards:
            line = (
                _("%(treasures)s: bury %(cards)s, as in “%(move)s”")
                if len(treasures) > 1 or len(cards) > 1
                else _("%(treasures)s: bury %(cards)s, so write “%(move)s”")
            )
            move = _("pass %(treasure)s bury %(card)d") % {"treasure": first, "card": cards[0]}
            either = _either([str(card) for card in cards])
            hints.append(line % {"treasures": names, "cards": either, "move": move})
    return hints


def _either(items: list[str]) -> str:
    """``items`` as alternatives in the active language: ``"12"``, ``"12 or 44"``,
    ``"rings, pearls or shells"``; ``""`` for none."""
    if len(items) < 2:
        return "".join(items)
    return _("%(some)s or %(last)s") % {"some": ", ".join(items[:-1]), "last": items[-1]}
