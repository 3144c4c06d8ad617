"""The email that answers a reply: the move played and the new table, or why not and what now.

Composed in the player's language from what their seat may see (the engine's view and the
public log entry of their own move), queued in the caller's transaction. While it is still
the player's move, the answer has a Reply-To for the game's current version, so the player
can go on (or try again) by replying to it.
"""

from django.utils import translation
from django.utils.translation import gettext as _

from accounts.languages import language_of
from accounts.preferences import settings_for
from accounts.unsubscribe import settings_url
from games import notify
from games.describe import Names, treasure_name, words_for
from games.describe.rattenscharf import describe_strip
from games.models import Game, GameStatus, Move, Seat
from games.movelog import public_log
from notifications.outbox import queue_email

from .parser import MoveParseError
from .tokens import reply_address

TEMPLATE = "mail_answer"


def parse_error_detail(error: MoveParseError) -> str:
    """Why the command line names no move, as a sentence in the active language."""
    details = {
        "empty": _(
            "We found no move in your reply: write it on the first line, above the quoted email."
        ),
        "unknown_command": _("“%(word)s” is not a move we know."),
        "missing_treasure": _("Name the treasure type you pass with, as in “pass coins bury 12”."),
        "unknown_treasure": _("“%(word)s” is not a treasure type."),
        "missing_card": _("A card number is missing, as in “keep 3 bury 17”."),
        "bad_card": _("“%(word)s” is not a card number."),
        "unexpected_words": _("We did not understand “%(word)s” after the move."),
        "missing_strip": _("Name the strip you place first, as in “place 17 at 2,0 h”."),
        "missing_position": _(
            "Say where the strip goes: the x,y of its left or top cell, as in “place 17 at 2,0 h”."
        ),
        "missing_orientation": _(
            "Say which way the strip lies: h (horizontal) or v (vertical), as in "
            "“place 17 at 2,0 h”."
        ),
    }
    return details.get(error.code, details["unknown_command"]) % {"word": error.word}


def refusal_detail(code: str, detail: str) -> str:
    """A ``ServiceError`` as the answer to an email says it (a reply is not a page to reload)."""
    if code == "stale_version":
        # After "you wrote …, and nothing was played:" (mail_answer), so not said again.
        return _(
            "Your reply answers an older email: the game has moved on since. The table as it "
            "is now is below."
        )
    return detail


def legal_hints(view: dict) -> list[str]:
    """What the player may write now, one line per kind of move, from ``view``'s legal actions
    (in the grammar of ``view``'s game, ``HINTS``)."""
    return HINTS[view.get("game", "piratz")](view)


def placement_hints(view: dict) -> list[str]:
    """Rattenscharf: one line per strip in the hand, with a legal place for it (R28, R29)."""
    hints = []
    for strip in view["hand"]:
        example = next(
            (a for a in view["legal_actions"] if a["strip"] == strip["id"] and not a["flip"]),
            None,
        )
        if example is None:
            continue
        hints.append(
            _(
                "“place %(id)d at x,y h” (or v, and “flip” to lay it the other way round): "
                "%(strip)s, e.g. “place %(id)d at %(x)d,%(y)d %(orientation)s”"
            )
            % {
                "id": strip["id"],
                "strip": describe_strip(strip["id"], strip["fields"]),
                "x": example["x"],
                "y": example["y"],
                "orientation": example["orientation"],
            }
        )
    return hints


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
    for buries, treasures in groups.items():
        names = ", ".join(treasure_name(treasure) for treasure in treasures)
        cards = _card_list(buries)
        if None in buries:
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


# The game's name (``view["game"]``) -> what its players may write now.
HINTS = {"piratz": piratz_hints, "rattenscharf": placement_hints}


def queue_answer(
    game: Game,
    seat_row: Seat,
    *,
    command: str,
    move: Move | None = None,
    refusal: str = "",
    in_reply_to: str = "",
) -> None:
    """Queue the answer to the player at ``seat_row``: ``move`` played, or ``refusal``.

    ``game`` is as it is now (after the move). ``in_reply_to`` is the Message-ID of the
    player's email, so mail clients thread the answer under it.
    """
    user = seat_row.user
    language = language_of(user)
    your_turn = game.status == GameStatus.ACTIVE and game.current_seat == seat_row.seat
    reply_to = reply_address(game.id, seat_row.seat, user.id, game.version) if your_turn else None
    with translation.override(language):
        context = _context(game, seat_row, command=command, move=move, refusal=refusal)
    context["can_reply"] = reply_to is not None
    # The footer of the game emails, without an unsubscribe link: an answer to the
    # player's own email always goes (docs/players.md "Which email goes when").
    context["settings_link"] = settings_url()
    headers = {"Reply-To": reply_to} if reply_to else {}
    if in_reply_to:
        headers["In-Reply-To"] = headers["References"] = in_reply_to
    queue_email(
        user.email,
        TEMPLATE,
        context,
        topic=f"game:{game.id}",
        headers=headers,
        language=language,
    )


def _context(game: Game, seat_row: Seat, *, command: str, move, refusal: str) -> dict:
    # What every game email shows (players, link, deadline, the table as this seat sees it).
    context = notify._game_context(game, seat_row, settings_for(seat_row.user))
    context.update(
        command=command,
        played=move is not None,
        move="",
        refusal=refusal,
        ended=game.status != GameStatus.ACTIVE,
        legal=[],
    )
    if game.state is None:
        return context
    view = game.rules.view(game.load_state(), seat_row.seat)
    names = Names(context["names"], seat_row.seat)
    if move is not None:
        rat_alert = move.action.get("action") == "reveal" and view.get("phase") == "alarm"
        entry = move.public_entry(game.rules)
        words = words_for(game.game)
        # The moves before it: where a game's sentence depends on the board (Rattenscharf).
        history = (
            [e for e in public_log(game, seat_row.seat) if e["number"] < move.number]
            if words.NEEDS_HISTORY
            else ()
        )
        context["move"] = words.describe_entry(
            entry, names, game.rules, history=history, rat_alert=rat_alert
        )
    if context["your_turn"]:
        context["legal"] = legal_hints(view)
    return context
