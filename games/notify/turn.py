"""The turn email: the table, the deadline and the moves since the player's own last one,
composed when it is sent; held while its player is at the table (``games.presence``)."""

import json
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from accounts.schedule import EmailKind
from games import presence
from games.catalogue import spec_for
from games.clocks import bank_words
from games.describe import Names, words_for
from games.models import Game, GameStatus, turn_delay
from games.movelog import log_to_describe, moves_at_version
from games.notify import common
from games.notify.recipient import recipient_for
from games.reply_tokens import reply_address
from games.seat_names import person_name
from games.table_talk import talk_since
from notifications.models import OutboundEmail
from notifications.rendering import Composed, composer
from notifications.send_checks import Drop, Hold, SendCheck, Verdict, send_check


def queue_turn_email(game: Game, seat: int) -> OutboundEmail | None:
    """Tell the player at ``seat`` it is their turn (None if they do not want the email).

    Shows the table as ``view(state, seat)`` gives it, the deadline in the player's time
    zone, and the recap of every move since the player's own last one, built from the
    public move log. Waits for the end of the player's quiet hours. None for a suspended
    player, whose turn times out at once, and for a seat a bot plays.

    The email is composed when it is sent (``_compose_turn_email``, in the worker) from
    a snapshot of the game as it is now: it shows this turn however far the game has
    moved on by then.

    Held while the player is at the table (``games.presence``: their game page was live
    within ``LIVE_SECONDS``): then it is due ``TURN_EMAIL_HOLD_SECONDS`` later, and sent
    only if the turn is still theirs then (``_held_turn_email_check``).
    """
    seat_row = common.seat_of(game, seat)
    if seat_row.bot:
        return None  # bots get no email, nor does a player while a bot stands in
    assert seat_row.user is not None  # a seat without a bot has its player
    if seat_row.user.is_suspended():
        return None  # the turn is played for them at once (deadlines.turn_deadline)
    recipient = recipient_for(seat_row.user, EmailKind.YOUR_TURN)
    if not recipient.wants:
        return None
    now = timezone.now()
    hold = _hold_while_live(game, seat, now)
    # Replying to the email with a move plays it (mailin): the token names this version.
    reply_to = reply_to_for(game, seat, seat_row)
    # Why not compose it here: the recap reads the whole move log and the table is put
    # in words, more work than the rest of the move, under the game's row lock
    # (BENCHMARKS.md "Move path"). What may change before it is sent is in the snapshot.
    snapshot = Composed(
        TURN_EMAIL_COMPOSER,
        {
            "game_id": str(game.id),
            "seat": seat,
            "version": game.version,
            "round_number": game.round,
            # The player's view, never the state: it holds the draw order and the key.
            # As JSON text: PostgreSQL's jsonb would reorder its keys, and the order of
            # some (Piratz's cubes, in P1's treasure order) is the order shown.
            "table_view_json": json.dumps(game.rules.view(game.load_state(), seat)),
            "deadline": game.deadline,
            # A time bank game: the bank this turn starts with (games.clocks).
            "bank_seconds": seat_row.bank_seconds,
            "reply_by_email": reply_to is not None,
            # The one the List-Unsubscribe header holds (its token is timestamped).
            "unsubscribe_link": recipient.unsubscribe_link,
        },
    )
    return common.queue_game_email(game, recipient, snapshot, reply_to=reply_to, send_check=hold)


TURN_EMAIL_HELD = "games.turn_email_held"


def _turn_email_hold() -> timedelta:
    # On the turn clock: on the fast clock a five-minute hold would outlast a short turn,
    # and the email, held past the deadline, would be dropped.
    return turn_delay(settings.TURN_EMAIL_HOLD_SECONDS)


def _hold_while_live(game: Game, seat: int, now: datetime) -> SendCheck | None:
    """The check every turn email queued at ``now`` carries, or None when holding is off
    (a hold of 0). Whether the player is at the table is asked by the check, in the
    worker: the move's transaction reads no cache (a failing cache query would abort it)."""
    if not _turn_email_hold():
        return None
    arguments = {"game_id": str(game.id), "seat": seat, "version": game.version, "held_at": now}
    return SendCheck(TURN_EMAIL_HELD, arguments)


@send_check(TURN_EMAIL_HELD)
def _held_turn_email_check(now: datetime, *, game_id, seat, version, held_at) -> Verdict:
    """Whether the turn email queued at ``held_at`` goes out at ``now``, when it is due.

    Within the hold after ``held_at``: held while the player is at the table
    (``games.presence``: their page was live within ``LIVE_SECONDS``), sent at once if not.
    After that, dropped when the turn that began at ``version`` is no longer theirs: the
    game moved on (their own move, even one that keeps the turn, as a Piratz reveal does;
    a timeout; the game ended). A move is the only change of ``version``, so an unchanged
    version is the same turn. While the player is still at the table, held once more, up
    to twice the hold after ``held_at``: someone reading the table may be thinking, but a
    tab left open and forgotten must not swallow the email. Then it goes, at most once
    (the outbox's claim). The reminder before the deadline is never held.
    """
    hold = _turn_email_hold()
    if now < held_at + hold:
        return Hold(held_at + hold) if presence.is_live(game_id, seat, now) else None
    game = Game.objects.filter(id=game_id).values("status", "current_seat", "version").first()
    turn = (GameStatus.ACTIVE, seat, version)
    if game is None or (game["status"], game["current_seat"], game["version"]) != turn:
        return Drop("The turn passed while its email was held (the player was at the table).")
    last_hold = held_at + 2 * hold
    if now < last_hold and presence.is_live(game_id, seat, now):
        return Hold(last_hold)
    return None


def reply_to_for(game: Game, seat: int, seat_row) -> str | None:
    """The Reply-To that plays a reply as a move at the game's current version, or None for
    a game not played by email (no ``GameSpec.mail_grammar``: its emails offer the link)."""
    if spec_for(game.game).mail_grammar is None:
        return None
    return reply_address(game.id, seat, seat_row.user_id, game.version)


TURN_EMAIL_COMPOSER = "games.your_turn"


@composer(TURN_EMAIL_COMPOSER)
def _compose_turn_email(
    *,
    game_id,
    seat,
    version,
    round_number,
    table_view_json,
    deadline,
    reply_by_email,
    unsubscribe_link,
    bank_seconds=None,
) -> dict:
    """The context of ``queue_turn_email``'s email, as it was when the turn began at
    ``version``: the table as the player saw it then (``table_view_json``), the recap of
    the moves up to ``version``, that turn's ``deadline``; names and settings as they are
    now."""
    table_view = json.loads(table_view_json)
    game = common.game_to_compose(game_id, "turn")
    # The game as it was when the turn began, on this unsaved instance only.
    game.version, game.round, game.deadline = version, round_number, deadline
    game.status, game.current_seat = GameStatus.ACTIVE, seat
    seat_row = common.seat_of(game, seat)
    assert seat_row.user is not None  # turn emails are queued for people only
    zone = recipient_for(seat_row.user, EmailKind.YOUR_TURN).zone
    context = common.game_email_context(game, seat_row, zone, table_view=table_view)
    context["recap"] = recap(game, seat)
    # The others' table talk since the player's last move (games.table_talk: the talk app's).
    context["talk"] = talk_since(game, seat)
    context["reply_by_email"] = reply_by_email
    # Snapshots queued before time banks existed have none: no bank line.
    context["bank"] = "" if bank_seconds is None else bank_words(bank_seconds)
    return common.with_footer(context, unsubscribe_link)


def recap(game: Game, seat: int) -> list[str]:
    """Every move by the others since the player at ``seat`` last moved, as sentences.

    Built from the public move log as that player may see it (rules P23: in blind mode
    the entries after their own last move are the ones they see in full), marking
    automatic moves, rat alerts and the end of each round (Piratz), or each strip's
    place and scoring and the strips drawn (Rattenscharf).
    """
    # Up to the game's version: a turn email composed later shows its turn, not the next.
    moves = moves_at_version(game)
    entries = log_to_describe(game, seat, moves)
    last_own = max((e["number"] for e in entries if e["seat"] == seat), default=0)
    rounds = {move.number: move.round for move in moves}
    seats = common.seats(game)
    names = Names([s.public_name for s in seats], seat, [person_name(s) for s in seats])
    current_round = game.round if game.status == GameStatus.ACTIVE else None
    return words_for(game.game).describe_moves(
        entries, names, game.rules, since=last_own, rounds=rounds, current_round=current_round
    )
