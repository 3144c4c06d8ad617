"""What every game action shares: locking the game row, finding a seat, ending a game."""

from datetime import datetime

from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import ServiceError, status_word
from games import events, queries
from games.models import Game, GameStatus, Move, Seat

MIN_TURN_HOURS, MAX_TURN_HOURS = 1, 720


def lock_game_with_seats(game_id) -> Game:
    """``lock_game`` with the game's seats prefetched (``queries.game_with_seats``), for
    the actions every turn runs."""
    game = queries.game_with_seats(game_id, lock=True)
    if game is None:
        raise ServiceError("not_found", _("No such game, or you are not a player of it."))
    return game


def lock_game(game_id) -> Game:
    """The game row, locked until the caller's transaction ends (``not_found`` if missing).

    Must run inside ``transaction.atomic``. On SQLite the IMMEDIATE transaction mode
    already serialises writers, so the lock is a no-op there.
    """
    found = Game.objects.select_for_update().filter(id=game_id).first()
    if found is None:
        raise ServiceError("not_found", _("No such game, or you are not a player of it."))
    return found


def check_seen_version(game: Game, version: int | None) -> None:
    """Refuse (``stale_version``) a moderator's action chosen from ``version`` when the
    game has moved on since; None: not checked. Must run with the game row locked."""
    if version is not None and version != game.version:
        raise ServiceError(
            "stale_version",
            _(
                "The game has moved on from version %(seen)d to %(now)d since you "
                "looked; nothing was done. Look again and decide."
            )
            % {"seen": version, "now": game.version},
        )


def refuse_unless_active(game: Game) -> None:
    """``ServiceError("game_not_active")``, saying the game's status, unless it is active."""
    if game.status != GameStatus.ACTIVE:
        raise ServiceError(
            "game_not_active",
            _("This game is %(status)s.") % {"status": status_word(game.status)},
        )


def refuse_if_suspended(player: User, detail: str | None = None) -> None:
    """Refuse (``suspended``, 403) while a moderator's suspension of ``player`` runs.

    Every action a player takes on a game calls it, so no door (page, API, email, a
    browser session opened before the suspension) can skip it. ``player`` must have been
    read in the caller's transaction (with the seat or the game row): the caller's own
    ``user`` object may predate the suspension. ``detail``: the sentence, when "you cannot
    play" does not say what was refused.
    """
    if player.is_suspended():
        raise ServiceError(
            "suspended",
            detail or _("A moderator has suspended your account, so you cannot play for now."),
        )


def seat_row(game: Game, user: User) -> Seat:
    """``user``'s seat row in ``game`` with its user (``not_found`` if they hold none)."""
    seat = Seat.objects.select_related("user").filter(game=game, user=user).first()
    if seat is None:
        raise ServiceError("not_found", _("No such game, or you are not a player of it."))
    return seat


def end_game(
    game: Game, status: str, reason: str, now: datetime, *, last_move: Move | None = None
) -> None:
    """Write ``game`` as ended (``status``, ``reason``): no deadline, no reminder due,
    nobody to move.

    ``last_move``: the move that ended it, if one did; it is announced (``move_applied``)
    before the end (``game_ended``), so listeners see every move and then the end.
    """
    game.status = status
    game.end_reason = reason
    game.ended_at = now
    game.deadline = None
    game.next_reminder_at = None
    game.current_seat = None
    game.save()
    if last_move is not None:
        events.move_applied.send(sender=Game, game=game, move=last_move)
    events.game_ended.send(sender=Game, game=game)


def result_with_resignations(game: Game, scored: dict | None) -> dict | None:
    """The result a finished ``game`` (seats prefetched) keeps: the engine's ``scored``,
    and when seats resigned (P26), ``"resigned": [seat, ...]`` and ``winners`` the
    best-scoring seats among the others (P22: ties share). Unchanged without resignations."""
    resigned = sorted(row.seat for row in game.seats.all() if row.resigned)
    if scored is None or not resigned:
        return scored
    others = [player for player in scored.get("players", []) if player["seat"] not in resigned]
    best = max((player["score"] for player in others), default=None)
    winners = [player["seat"] for player in others if player["score"] == best]
    return {**scored, "winners": winners, "resigned": resigned}
