"""The "we moved for you" email after a deadline passed (rules P24, R34), composed when
it is sent."""

import json

from accounts.schedule import EmailKind
from games.describe import Names, words_for
from games.models import Actor, Game, GameStatus, Move
from games.notify import common
from games.notify.recipient import recipient_for
from notifications.models import OutboundEmail
from notifications.rendering import Composed, composer


def queue_auto_moved(
    game: Game, moves: list[Move], *, table_before: dict | None = None
) -> OutboundEmail | None:
    """Tell the player whose deadline passed what the service played for them: one email
    for the turn's automatic ``moves`` (rules P24, R34).

    ``table_before`` is the engine's view for that seat just before the first of them
    (public: everyone saw it); with it the email says what the moves did (Piratz: which
    cards the move took, in blind mode only how many, as P23 hides collections;
    Rattenscharf: where each strip went and what it scored), in the game's own words
    (``games.describe.words_for``).

    The email is composed when it is sent (``_compose_auto_moved``, in the worker): the
    deadline sweep composed it in its transaction (17% of a sweep's time). The game moves
    on before then, so the snapshot holds what the email shows as of now (``game`` just
    after the ``moves``): the player's view of the table and ``table_before`` (as JSON
    text), the moves' numbers (their log rows do not change), whether collections are
    hidden (blind mode while the game runs, P23: decided now, so a game that ends before
    the email is sent still shows what this one may), the status, seat to move and
    deadline (the link, the "your turn" line and whether the game may still be abandoned),
    which seats bots played (a stand-in may take the player's seat right after these
    moves) and whether stand-in bots are on. Never the state (the draw order,
    the key); never a sign-in link (minted when it is sent). The players' own names and
    settings are theirs when it is sent, as for the turn email.
    """
    move = moves[0]
    seat_row = common.seat_of(game, move.seat)
    if seat_row.user is None:
        return None
    recipient = recipient_for(seat_row.user, EmailKind.AUTO_MOVED)
    if not recipient.wants:
        return None
    snapshot = Composed(
        AUTO_MOVED_COMPOSER,
        {
            "game_id": str(game.id),
            "seat": move.seat,
            "move_numbers": [m.number for m in moves],
            # Views, never the state. As JSON text: PostgreSQL's jsonb would reorder their
            # keys, and some orders are the order shown (Piratz's cubes, a card's treasures).
            "table_view_json": json.dumps(game.rules.view(game.load_state(), move.seat)),
            "table_before_json": None if table_before is None else json.dumps(table_before),
            # Piratz's blind mode (P23): a collection's cards stay hidden until the end.
            "hidden": game.blind and game.status == GameStatus.ACTIVE,
            "status": game.status,
            "current_seat": game.current_seat,
            "deadline": game.deadline,
            # Seat names say which seats a bot plays ("a careful bot stands in"): as now,
            # not after the stand-in this timeout may bring, nor any later one.
            "bots": [s.bot for s in common.seats(game)],
            # Whether a whole round of automatic moves ends the game or brings stand-ins.
            "stand_in_bots": game.stand_in_bots,
            # The one the List-Unsubscribe header holds (its token is timestamped).
            "unsubscribe_link": recipient.unsubscribe_link,
        },
    )
    return common.queue_game_email(game, recipient, snapshot)


AUTO_MOVED_COMPOSER = "games.auto_moved"


@composer(AUTO_MOVED_COMPOSER)
def _compose_auto_moved(
    *,
    game_id,
    seat,
    move_numbers,
    table_view_json,
    table_before_json,
    hidden,
    status,
    current_seat,
    deadline,
    bots,
    unsubscribe_link,
    stand_in_bots=None,
) -> dict:
    """The context of ``queue_auto_moved``'s email, as it was when the automatic moves
    ``move_numbers`` had been played for ``seat``: the table as the player saw it then
    (``table_view_json``), what the moves did from ``table_before_json``, collections
    ``hidden`` or not as they were then, the game's ``status``, ``current_seat``,
    ``deadline``, seats' ``bots`` and ``stand_in_bots`` option then; the players' names
    and settings as they are now.

    ``stand_in_bots`` None (a row queued before the snapshot kept it): the game's option,
    which is set when the game is created and never changes.
    """
    game = common.game_to_compose(game_id, "auto-moved")
    # The game as it was just after the moves, on this unsaved instance and its seats only.
    game.status, game.current_seat, game.deadline = status, current_seat, deadline
    if stand_in_bots is not None:
        game.stand_in_bots = stand_in_bots
    for row in common.seats(game):
        row.bot = bots[row.seat]
    rules = game.rules
    moves = Move.objects.filter(game=game, number__in=move_numbers).order_by("number")
    # With who played them: a moderator forcing the move (rules P24) is told so, not that
    # the deadline passed.
    entries = [{**m.public_entry(rules), "actor": m.actor} for m in moves]
    seat_row = common.seat_of(game, seat)
    assert seat_row.user is not None  # auto-move emails are queued for people only
    table_view = json.loads(table_view_json)
    zone = recipient_for(seat_row.user, EmailKind.AUTO_MOVED).zone
    context = common.game_email_context(game, seat_row, zone, table_view=table_view)
    table_before = None if table_before_json is None else json.loads(table_before_json)
    names = Names(context["names"], seat, context.get("people"))
    context.update(
        words_for(game.game).describe_auto_moved(entries, table_before, names, rules, hidden=hidden)
    )
    context["abandon_note"] = _abandon_note(game, context["notes"])
    # Forced by a moderator before the deadline (their name is never told).
    context["by_moderator"] = any(entry["actor"] == Actor.MODERATOR for entry in entries)
    return common.with_footer(context, unsubscribe_link)


def _abandon_note(game: Game, notes: dict) -> str:
    """What a whole round of automatic moves would do to ``game`` (rules P25, R36), as the
    "we moved for you" email ends: the game ends (``notes["abandon"]``), or with stand-in
    bots on, bots take over the seats (``notes["abandon_stand_in"]``); nothing once the
    game is over (these very moves may have ended it), as there is no end to come."""
    if game.status != GameStatus.ACTIVE:
        return ""
    return notes["abandon_stand_in"] if game.stand_in_bots else notes["abandon"]
