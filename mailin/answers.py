"""The email that answers a reply: the move played and the new table, or why not and what now,
and each table-talk message of the reply posted, or why not.

Composed in the player's language from what their seat may see (the engine's view and the
public log entry of their own move), queued in the caller's transaction. While it is still
the player's move, the answer has a Reply-To for the game's current version, so the player
can go on (or try again) by replying to it.
"""

from django.utils import translation
from django.utils.translation import gettext as _

from accounts.languages import language_of
from accounts.models import User
from accounts.preferences import settings_for
from accounts.unsubscribe import settings_url
from games.catalogue import spec_for
from games.describe import Names, words_for
from games.models import Game, GameStatus, Move, Seat
from games.movelog import public_log
from games.notify import common
from games.reply_tokens import reply_address
from notifications.outbox import queue_email

from .parser import MoveParseError

TEMPLATE = "mail_answer"


def parse_error_detail(error: MoveParseError) -> str:
    """Why the command line names no move, as a sentence in the active language: the
    game's own sentence for its own codes (``MoveParseError.detail``), else the one for the
    codes every grammar shares."""
    details = {
        "empty": _(
            "We found no move in your reply: write it on the first line, above the quoted email."
        ),
        "unknown_command": _("“%(word)s” is not a move we know."),
        "unexpected_words": _("We did not understand “%(word)s” after the move."),
        # The fallback of a game without a mail grammar (GameSpec.mail_grammar).
        "no_grammar": _(
            "This game cannot be played by email: play your move on the game's page (the "
            "link below)."
        ),
    }
    if error.detail is not None:
        return str(error.detail) % {"word": error.word}
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


def legal_hints(kind: str, view: dict) -> list[str]:
    """What the player may write now, one line per kind of move, from ``view``'s legal
    actions, in the grammar of the game ``kind`` (its spec's ``mail_hints``; none without)."""
    hints = spec_for(kind).mail_hints
    return [] if hints is None else hints(view)


def queue_answer(
    game: Game,
    seat_row: Seat,
    *,
    command: str,
    move: Move | None = None,
    refusal: str = "",
    talk: list[dict] | None = None,
    in_reply_to: str = "",
) -> None:
    """Queue the answer to the player at ``seat_row``: ``move`` played, or ``refusal``
    (neither with an empty ``command``: the reply held say-lines only), and each of
    ``talk``'s messages (``{"text", "posted", "refusal"}``) posted or refused.

    ``game`` is as it is now (after the move). ``in_reply_to`` is the Message-ID of the
    player's email, so mail clients thread the answer under it.
    """
    user = seat_row.user
    assert user is not None  # answered is the player who wrote, never a bot's own seat
    language = language_of(user)
    your_turn = game.status == GameStatus.ACTIVE and game.current_seat == seat_row.seat
    # A game not played by email (no mail grammar) is answered without a Reply-To.
    by_email = your_turn and spec_for(game.game).mail_grammar is not None
    reply_to = reply_address(game.id, seat_row.seat, user.id, game.version) if by_email else None
    with translation.override(language):
        context = _context(game, seat_row, user, command=command, move=move, refusal=refusal)
    context["can_reply"] = reply_to is not None
    # Plain text from the player: the HTML part escapes it like every context value.
    context["talk"] = talk or []
    # A reply of say-lines only: no move to report, played or refused.
    context["talk_only"] = bool(talk) and move is None and not refusal
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


def _context(game: Game, seat_row: Seat, user: User, *, command: str, move, refusal: str) -> dict:
    # What every game email shows (players, link, deadline, the table as this seat sees it).
    context = common.game_email_context(game, seat_row, settings_for(user).zone)
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
    names = Names(context["names"], seat_row.seat, context.get("people"))
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
        context["legal"] = legal_hints(game.game, view)
    return context
