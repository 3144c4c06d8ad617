"""What every game email shares: the seats to tell, the context each one shows, the
footer and its headers, and the one way a game email is queued (email, push or both).

Each ``queue_*`` of this package runs inside the transaction of the change that causes
it (the outbox sends after commit), asks the recipient (``recipient.Recipient``, built
once per seat) whether they want that kind of email, and adds the one-click unsubscribe
headers (RFC 8058). What a player is told comes from the engine's view for their seat
and the public move log only, never the secret state.
"""

from datetime import datetime
from zoneinfo import ZoneInfo

from django.utils import timezone

from accounts.schedule import Channel
from accounts.unsubscribe import settings_url
from games.clocks import clock_words
from games.describe import Names, format_moment, words_for
from games.models import Game, GameStatus, Seat
from games.news_channels import queue_elsewhere
from games.notify.links import game_entry_url
from games.notify.recipient import Recipient
from games.queries import game_with_seats, seats_in_order
from games.seat_names import person_name, seat_note
from notifications.models import OutboundEmail
from notifications.outbox import queue_email
from notifications.rendering import Composed
from notifications.send_checks import SendCheck

# The turn email and the reminder wait for the end of the recipient's quiet hours.
QUIET_KINDS = frozenset({"your_turn", "reminder"})


def game_to_compose(game_id, email: str) -> Game:
    """The game a composer reads (with its seats, as a move does); raises
    ``Game.DoesNotExist`` when it is gone, naming the ``email`` that cannot be composed."""
    game = game_with_seats(game_id)
    if game is None:
        raise Game.DoesNotExist(f"game {game_id} is gone: its {email} email cannot be composed")
    return game


def holder_name(holder: Seat | None) -> str:
    """The name of the person holding the host's chair from ``holder`` ("" for nobody)."""
    return "" if holder is None or holder.user is None else str(holder.user.public_name)


def seats(game: Game) -> list[Seat]:
    return seats_in_order(game)  # those read with the game, else one query


def people(game: Game) -> list[Seat]:
    # The seats with a person to tell (bots have none; a player a bot stands in for
    # still hears how their game goes). Not an erased account: nobody is left to tell,
    # and ``erased-<id>@invalid`` would only fail.
    return [
        s
        for s in seats(game)
        if s.user_id is not None and s.user is not None and s.user.erased_at is None
    ]


def seat_of(game: Game, seat: int) -> Seat:
    return next(s for s in seats(game) if s.seat == seat)


def game_email_context(
    game: Game,
    seat_row: Seat,
    zone: ZoneInfo,
    *,
    with_table: bool = True,
    table_view: dict | None = None,
) -> dict:
    """What every game email to ``seat_row``'s player shows: the players, their signed
    link, the deadline in their ``zone`` (``Recipient.zone``), the
    game's own notes and the table (as ``table_view`` gives it, by default that seat's
    view of the game's state; none with ``with_table=False``). Only what that seat may
    see; the caller renders it in the player's language (mail-in's answers use it too)."""
    names = [s.public_name for s in seats(game)]
    assert seat_row.user is not None  # game emails go to people only
    context = {
        "people": [person_name(s) for s in seats(game)],
        "name": seat_row.user.public_name,
        "game": game.game,
        "game_name": game.rules.NAME,
        "names": names,
        "others": [n for i, n in enumerate(names) if i != seat_row.seat],
        "players": names,
        # What the short labels' words mean ("Carla · bot"), once, for a list of players.
        "seat_notes": [note for s in seats(game) if (note := seat_note(s))],
        "seat": seat_row.seat,
        "turn_hours": game.turn_hours,
        # A time bank or daily deadline in words ("" for hours per turn: turn_hours says it).
        "clock": clock_words(game),
        "blind": game.blind,
        "link": game_entry_url(game, seat_row.user),
        "deadline": format_moment(game.deadline, zone),
        "your_turn": game.status == GameStatus.ACTIVE and game.current_seat == seat_row.seat,
        "table": None,
    }
    context["notes"] = notes(game)
    if table_view is None and with_table and game.state is not None:
        table_view = game.rules.view(game.load_state(), seat_row.seat)
    if with_table and table_view is not None:
        context["table"] = words_for(game.game).describe_table(
            table_view, Names(names, seat_row.seat, context["people"])
        )
    return context


def notes(game: Game) -> dict:
    """The game's own sentences in the emails (``games.describe``: ``email_notes``), in the
    active language. Every game's emails are one set of templates (``emails/<kind>/``):
    they name the game (``game_name``), say these, and draw the table and result with
    ``emails/<game>/_table`` and ``_result``."""
    return words_for(game.game).email_notes(**game.rules_options())


def unsubscribe_headers(unsubscribe: str) -> dict[str, str]:
    # RFC 8058: mail clients offer a one-click "unsubscribe" that POSTs to this address.
    return {
        "List-Unsubscribe": f"<{unsubscribe}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }


def with_footer(context: dict, unsubscribe: str) -> dict:
    """``context`` with the links every game email ends with (``unsubscribe``: its kind's)."""
    return {**context, "unsubscribe_link": unsubscribe, "settings_link": settings_url()}


def queue_game_email(
    game: Game,
    recipient: Recipient,
    context: dict | Composed,
    *,
    reply_to: str | None = None,
    not_before: datetime | None = None,
    send_check: SendCheck | None = None,
) -> OutboundEmail | None:
    """Queue ``recipient.kind`` for ``recipient`` about ``game`` with the unsubscribe headers (and
    ``reply_to``); the quiet kinds wait for the end of quiet hours, any email for
    ``not_before`` too; ``send_check`` is asked when it is due (``queue_email``).

    Where the person's channel for the kind says push or both (``NotificationSettings.
    channel``), a push message goes too, due and checked alike (``games.news_channels``);
    with push alone no email (None), unless no push could be queued (no device): then
    the email goes all the same."""
    if isinstance(context, Composed):
        # It adds the footer itself (``with_footer``) when it is built, with this link.
        unsubscribe = context.arguments["unsubscribe_link"]
    else:
        unsubscribe = recipient.unsubscribe_link
        context = with_footer(context, unsubscribe)
    kind = recipient.kind
    send_after = recipient.quiet_until(timezone.now()) if kind in QUIET_KINDS else None
    if not_before is not None:
        send_after = not_before if send_after is None else max(send_after, not_before)
    if recipient.channel != Channel.EMAIL:
        pushed = queue_elsewhere(
            game, recipient.user, kind, not_before=send_after, send_check=send_check
        )
        if pushed and recipient.channel == Channel.PUSH:
            return None
    headers = unsubscribe_headers(unsubscribe)
    if reply_to:
        headers["Reply-To"] = reply_to
    return queue_email(
        recipient.address,
        kind,
        context,
        topic=f"game:{game.id}",
        send_after=send_after,
        headers=headers,
        language=recipient.language,
        send_check=send_check,
    )
