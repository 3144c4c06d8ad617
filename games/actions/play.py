"""Playing: a player's move, and the automatic move when a deadline passes (rules P24, P25)."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import audit.log
from accounts.models import User
from audit.models import AuditAction
from core import sql
from core.errors import ServiceError, status_word
from games import bots, deadlines, events
from games.actions.common import (
    check_seen_version,
    end_game,
    lock_game,
    lock_game_with_seats,
    refuse_if_suspended,
    refuse_unless_active,
    result_with_resignations,
)
from games.catalogue import spec_for
from games.models import Actor, EndReason, Game, GameStatus, Move, Seat
from games.movelog import RESIGN, first_full_entry
from games.notify import auto_moved, game_over, turn
from notifications.outbox import sent_together

# Engine codes every game means alike; a game's own are its spec's ``refusal_codes``.
_ENGINE_CODES = {"not_your_turn": "not_your_turn"}


def _service_code(game: Game, error) -> str:
    """The API's code for the engine's refusal: the game's mapping, else ``illegal_action``."""
    codes = {**_ENGINE_CODES, **spec_for(game.game).refusal_codes}
    return codes.get(error.code, "illegal_action")


def _engine_detail(game: Game, error) -> str:
    """The engine's refusal as a sentence in the reader's language: the game's sentence for
    the code (``GameSpec.refusal_sentences``), else a general one.

    Never the engine's own message, in English neither: it speaks in codes and phase names
    ("bury must be null"), which a player cannot act on."""
    sentence = spec_for(game.game).refusal_sentences.get(error.code)
    if sentence is None:
        return _("That move is not allowed now; nothing was played.")
    return str(sentence)


def do_play_move(game_id, user: User, version: int, action: dict) -> Game:
    """Play ``action`` for ``user``'s seat, chosen from game ``version``.

    A request repeated after it was applied (same seat, same action, the version it
    was chosen from) is answered with the current game instead of ``stale_version``,
    so a client retrying after a lost response plays its move exactly once; in a blind
    game only while the player may still see that move in full (``_is_repeat``).
    Raises ``ServiceError`` and changes nothing when the move is refused: ``suspended``
    while a moderator's suspension of ``user`` runs, whichever door the move came by.
    The returned game has its seats and their users prefetched, ready to serialise.
    """
    # sent_together: a move that ends the game queues an email per player, one task.
    with transaction.atomic(), sent_together():
        # The seats too: the seat check below and the response both use them.
        game = lock_game_with_seats(game_id)
        row = next((s for s in game.seats.all() if s.user_id == user.id), None)
        if row is None:
            if user.is_staff:
                # Staff may see every game, so "no such game" would be untrue: say why not.
                raise ServiceError(
                    "not_a_player", _("You may see this game but hold no seat in it.")
                )
            raise ServiceError("not_found", _("No such game, or you are not a player of it."))
        # The seat's user was read with the locked game row, so a suspension committed
        # after the caller's session (or API key, or email) was read still counts.
        assert row.user is not None  # found by its user id
        refuse_if_suspended(row.user)
        seat = row.seat
        if version != game.version and _is_repeat(game, seat, version, action):
            return game
        refuse_unless_active(game)
        if row.resigned:
            # P26: final; the stand-in bot plays the seat to the end.
            raise ServiceError("illegal_action", _("You have resigned from this game."))
        if game.current_seat != seat:
            raise ServiceError("not_your_turn", _("It is not your turn."))
        if bots.bot_to_move(game) is not None:
            raise ServiceError(
                "not_your_turn",
                _("A bot is playing your seat: take your seat back first, then move."),
            )
        if version != game.version:
            raise ServiceError(
                "stale_version",
                _("The game has moved on to version %(version)d; reload it and choose again.")
                % {"version": game.version},
            )
        _apply(game, seat, action, actor=Actor.PLAYER, actor_user=user)
    return game


def _is_repeat(game: Game, seat: int, version: int, action: dict) -> bool:
    """Whether ``action`` is the move ``seat`` played from ``version`` (a client's retry)
    and the player may still see that log entry in full (rules P23).

    In a blind game still being played, a player's older moves are reduced to their
    kind: recognising a repeat there would answer "already played" to the right guess
    of a hidden ``treasure``, ``bury`` or ``keep`` and ``stale_version`` to every other,
    so trying each recovers it. There such a request is refused like any stale one,
    right guess or wrong; only the player's last move, which they still see, is
    recognised. One query whatever the guess, so the time taken does not tell either.
    """
    if not isinstance(version, int) or version >= game.version:
        return False
    number = version + 1
    # The seat's entry at ``number`` and its next own move, if any: a later own move is
    # all that hides the entry from its player (movelog.first_full_entry, P23).
    own = list(Move.objects.filter(game=game, seat=seat, number__gte=number).order_by("number")[:2])
    if not own or own[0].number != number:
        return False
    return first_full_entry(game, seat, own) <= number and own[0].action == action


def do_play_timeout(
    game_id,
    *,
    expected_version: int | None = None,
    moderator: User | None = None,
    reason: str | None = None,
):
    """Play the automatic moves (rules P24, R34) for the player whose turn it is: as many
    as finish their turn (``_play_automatic_turn``), each its own version.

    The player's standing order (``Seat.standing_order``) chooses the type where it can
    (``timeout_action(state, standing_order=...)``); the move is automatic either way.

    The deadline sweep passes the ``expected_version`` it saw, so a sweep that runs
    twice, or races the player's own move, acts at most once: a changed version means
    somebody already moved, and nothing happens (returns None). A moderator forcing
    the move passes ``moderator`` and their ``reason`` (required then: ``invalid`` if
    blank; or use ``moderation.do_force_automatic_move``), and the move's audit entry is
    written in this transaction; for them the deadline does not matter, and a changed
    ``expected_version`` raises ``stale_version`` instead of passing in silence.
    When a bot plays the seat to move (its task was lost), the bot's move is played
    instead: not automatic, never counted by P25 (``games.bots``). After an automatic
    move, a stand-in may take the seat (``bots.stand_in_after_timeouts``).
    Returns the game after the move.
    """
    audit_reason = ""  # only a moderator's move is audited, with their reason
    if moderator is not None:
        audit_reason = audit.log.clean_reason(reason)  # before anything changes
    # sent_together: "we moved for you" and the next player's turn (or the game's end).
    with transaction.atomic(), sent_together():
        # The seats (with users) serve the standing order, the next turn's deadline and
        # the emails alike: read with the game, one query.
        game = lock_game_with_seats(game_id)
        if game.status != GameStatus.ACTIVE:
            if moderator is not None:
                raise ServiceError(
                    "game_not_active",
                    _("This game is %(status)s.") % {"status": status_word(game.status)},
                )
            return None
        if expected_version is not None and game.version != expected_version:
            if moderator is not None:
                check_seen_version(game, expected_version)  # raises stale_version
            return None
        if moderator is None and (game.deadline is None or game.deadline > timezone.now()):
            return None  # not due (deadline extended since the sweep looked)
        if bots.bot_to_move(game) is not None:
            move = _play_bot_move(game)
            if moderator is not None:
                audit.log.record(
                    moderator,
                    AuditAction.FORCE_AUTOMATIC_MOVE,
                    reason=audit_reason,
                    game=game,
                    extra={"version": move.number - 1, "move": move.number, "bot": True},
                )
            return game
        # The deadline belongs to the turn: the automatic moves play the whole of it (one
        # for Piratz, P24; one per strip in hand for Rattenscharf, R34).
        moves = _play_automatic_turn(game, moderator)
        move = moves[-1]
        bots.stand_in_after_timeouts(game, move.seat, move.at)
        if moderator is not None:
            audit.log.record(
                moderator,
                AuditAction.FORCE_AUTOMATIC_MOVE,
                reason=audit_reason,
                game=game,
                user=next(s.user for s in game.seats.all() if s.seat == move.seat),
                extra={
                    "version": moves[0].number - 1,
                    "move": move.number,
                    "action": move.action,
                    **({"moves": [m.number for m in moves]} if len(moves) > 1 else {}),
                },
            )
    return game


def _play_automatic_turn(game: Game, moderator: User | None) -> list[Move]:
    """Play the current player's whole turn with the rules' automatic moves, in the locked
    ``game`` (seats prefetched), and queue the one email that tells them. Returns the moves.

    Each move is its own version and log row (automatic); the turn ends when a move
    ends it (``new_turn``) or the game ends.
    """
    rules = game.rules
    seat = game.current_seat
    assert seat is not None  # an active game has a seat to move
    state = game.load_state()
    # The player's standing order picks the type where it can; the rules' own choice
    # otherwise (P24). Either way the move is automatic, so abandonment still counts it.
    order = next(s.standing_order for s in game.seats.all() if s.seat == seat)
    # Public (everyone saw this table): lets the email say what the automatic moves did.
    table_before = rules.view(state, seat)
    moves = []
    while True:
        action = rules.timeout_action(state, standing_order=order)
        move, new_turn = _apply(
            game,
            seat,
            action,
            actor=Actor.MODERATOR if moderator else Actor.SERVICE,
            actor_user=moderator,
            automatic=True,
        )
        moves.append(move)
        if new_turn or not game.is_active:
            break
        state = game.load_state()
    auto_moved.queue_auto_moved(game, moves, table_before=table_before)
    return moves


def _apply(
    game: Game,
    seat: int,
    action: dict,
    *,
    actor: str,
    actor_user: User | None,
    automatic: bool = False,
) -> tuple[Move, bool]:
    """Apply one move to the locked ``game``: engine step, log rows, game row, emails.

    Queues the emails the move causes (turn passed to another player, game over, game
    abandoned under P25/R36) in the same transaction. Returns the logged move and
    whether it ended the turn (the rules' ``new_turn``). Must run inside the
    transaction that locked the game row.
    """
    rules = game.rules
    before = game.load_state()
    try:
        after = rules.apply(before, seat, action)
    except rules.IllegalAction as error:
        raise ServiceError(_service_code(game, error), _engine_detail(game, error)) from None

    now = timezone.now()
    effects = rules.move_effects(before, after, seat, action)
    round_played = rules.round_number(before)
    # The move's two writes in SQL written out (core.sql): the ORM compiled each afresh
    # on every move, more Python than the rest of the write (decision 0009).
    move = Move(
        game=game,
        number=game.version + 1,
        round=round_played,
        seat=seat,
        action=action,
        revealed=effects["revealed_ids"],
        automatic=automatic,
        actor=actor,
        actor_user=actor_user,
        at=now,
    )
    sql.insert(move)
    # What the game keeps of a move beside the log (Piratz: the card it buried).
    after_move = spec_for(game.game).after_move
    if after_move is not None:
        after_move(game, move, effects)

    game.store_state(after)
    game.version += 1
    game.round = rules.round_number(after)
    if rules.is_finished(after):
        # P26: a resigned seat cannot win (its stand-in played it to the end).
        game.result = result_with_resignations(game, rules.view(after, None)["result"])
        end_game(game, GameStatus.FINISHED, EndReason.NONE, now, last_move=move)
        game_over.queue_game_over(game)
        return move, True
    abandoned = _abandoned_rounds(game, round_played)
    if abandoned and not bots.stand_in_instead_of_abandoning(game, abandoned, now):
        # Rules P25 / R36: nobody played a single move of the last rounds (turns): they
        # have all gone (with stand-ins on, bots took their seats instead and the game
        # goes on).
        end_game(game, GameStatus.ABORTED, EndReason.ABANDONED, now, last_move=move)
        game_over.queue_game_ended(game)
        return move, True
    if effects["new_turn"]:
        # A time bank keeps what this turn left of it, plus the increment (games.clocks).
        deadlines.end_turn(game, seat, now)
    game.current_seat = rules.current_seat(after)
    update_fields = ["state", "version", "round", "current_seat", "updated_at"]
    if effects["new_turn"]:
        # A fresh clock (the player's vacations and quiet hours applied) and reminders;
        # the previous turn's unsent reminders are dropped with it.
        deadlines.start_turn(game, now)
        update_fields += deadlines.TURN_FIELDS
    sql.update(game, update_fields)
    if effects["new_turn"] and game.current_seat != seat:
        # Not when the turn comes back to the last spade holder (P16): they are playing.
        turn.queue_turn_email(game, game.current_seat)
    events.move_applied.send(sender=Game, game=game, move=move)
    return move, effects["new_turn"]


def do_play_bot_move(game_id, *, expected_version: int) -> Game | None:
    """The bot whose turn it is plays one move in the game, chosen from game
    ``expected_version`` (what ``games.tasks.play_bot_turn`` was sent with).

    Does nothing and returns None when the game moved on (another version), ended, or
    waits for a human (a player took their seat back): a task delivered twice, or racing
    the deadline sweep, acts once. The move is logged with ``actor`` bot, not automatic.
    """
    # sent_together: a bot's move may end the game, an email to every player.
    with transaction.atomic(), sent_together():
        game = lock_game_with_seats(game_id)
        if game.status != GameStatus.ACTIVE or game.version != expected_version:
            return None
        if bots.bot_to_move(game) is None:
            return None
        _play_bot_move(game)
    return game


def _play_bot_move(game: Game) -> Move:
    """The bot to move in the locked ``game`` (seats prefetched) plays: one move."""
    seat = game.current_seat
    assert seat is not None  # a bot is to move, so somebody is
    # P26: a resigned seat's bot plays it to the end, its moves logged as automatic.
    resigned = bots.seat_row(game, seat).resigned
    move, _ = _apply(
        game,
        seat,
        bots.choose_action(game, seat),
        actor=Actor.BOT,
        actor_user=None,
        automatic=resigned,
    )
    if game.is_active and game.current_seat == seat and bots.bot_to_move(game) is not None:
        # The same bot goes on (the turn's next step): its clock restarts with each step,
        # so a long turn is not handed to the sweep while its tasks are doing fine.
        game.deadline = None if game.is_paused else bots.bot_deadline(move.at)
        game.save(update_fields=["deadline", "updated_at"])
    return move


def _abandoned_rounds(game: Game, round_played: int) -> range | None:
    """The rounds that abandon ``game`` (the rules' ``ROUNDS_TO_ABANDON`` consecutive
    rounds, the last of them ``round_played``, every move in them automatic), when the
    move just applied ended ``round_played``; else None. Rounds are the rules' own
    (``round_number``): Piratz's rounds (P25), Rattenscharf's turns (R36)."""
    if game.round == round_played:
        return None
    first = round_played - game.rules.ROUNDS_TO_ABANDON + 1
    if first < 1:
        return None
    rounds = range(first, round_played + 1)
    if (
        Move.objects.filter(game=game, round__gte=first, round__lte=round_played, automatic=False)
        .exclude(action__action=RESIGN)  # a resignation is no move (P26)
        .exists()
    ):
        return None
    return rounds


def do_set_standing_order(game_id, user: User, order: list) -> Seat:
    """Set ``user``'s standing order for timeouts in the game (see ``do_play_timeout``).

    ``order``: distinct treasure type names of the game's rules (``rules.TREASURES``),
    first choice first; an empty list goes back to the rules' own choice (P24). Allowed
    while the game is invited or active. Raises ``ServiceError``: ``not_found`` (no such
    game, or an outsider), ``not_a_player`` (staff without a seat), ``suspended`` (a
    moderator's suspension runs), ``invalid``, ``game_not_active`` (the game has ended).
    Returns the seat saved, its game attached.
    """
    with transaction.atomic():
        # The game row's lock orders this against a timeout reading the order.
        game = lock_game(game_id)
        seat = Seat.objects.select_related("user").filter(game=game, user=user).first()
        if seat is None:
            if user.is_staff:
                raise ServiceError(
                    "not_a_player",
                    _("You hold no seat in this game, so you have no standing order."),
                )
            raise ServiceError("not_found", _("No such game, or you are not a player of it."))
        assert seat.user is not None  # found by its user
        refuse_if_suspended(seat.user)  # read just now: a suspension since the request counts
        if game.status not in (GameStatus.INVITED, GameStatus.ACTIVE):
            raise ServiceError(
                "game_not_active",
                _("This game is %(status)s; its standing orders are closed.")
                % {"status": status_word(game.status)},
            )
        order = _valid_standing_order(game.rules, order)
        seat.standing_order = order
        seat.save(update_fields=["standing_order"])
    seat.game = game
    return seat


def standing_order_choices(rules) -> list[str]:
    """The names a standing order may list in a game of ``rules``: its treasure types
    (``TREASURES``, which its ``timeout_action`` follows); none for a game without them
    (Rattenscharf: R35 alone chooses)."""
    return list(getattr(rules, "TREASURES", ()))


def _valid_standing_order(rules, order) -> list[str]:
    choices = standing_order_choices(rules)
    if not isinstance(order, list) or not all(isinstance(name, str) for name in order):
        raise ServiceError("invalid", _("standing_order must be a list of treasure type names."))
    if order and not choices:
        raise ServiceError(
            "invalid",
            _(
                "%(game)s has no standing orders: when your time runs out, its rules choose "
                "the automatic move. Send an empty list."
            )
            % {"game": rules.NAME},
        )
    unknown = [name for name in order if name not in choices]
    if unknown:
        raise ServiceError(
            "invalid",
            _("%(unknown)s is not a treasure type; choose from %(choices)s.")
            % {"unknown": ", ".join(unknown), "choices": ", ".join(choices)},
        )
    if len(set(order)) != len(order):
        raise ServiceError(
            "invalid", _("Name each treasure type at most once in a standing order.")
        )
    return order
