"""The public move log as one viewer may see it: rules P23's blind-mode ruling, in one place."""

from collections.abc import Sequence

from games.describe.common import RESIGN, is_resignation
from games.models import Game, GameStatus, Move

__all__ = [
    "RESIGN",
    "first_full_entry",
    "is_resignation",
    "log_to_describe",
    "moves_at_version",
    "public_log",
]


def public_log(
    game: Game,
    viewer_seat: int | None,
    moves: Sequence[Move] | None = None,
    *,
    watcher: bool = False,
) -> list:
    """The log entries of ``game``, oldest first, as the player at ``viewer_seat`` may see them.

    ``viewer_seat`` is the seat of the player asking, or None for a spectator: staff
    holding no seat in the game, or with ``watcher`` anyone watching a public game (see
    ``first_full_entry``). ``moves`` are the game's moves in ``number`` order if the
    caller has them already; otherwise they are read (one query).

    Each entry is ``Move.public_entry``'s (docs/api.md "Games, moves and versions"). Entries
    are full, except in a blind game still being played (rules P23): there a player sees full
    entries only from their own last move on, the moves they watched "at the table"
    since they last acted; every older entry is reduced to its ``number``, ``seat``,
    the action's kind (``{"action": "pass"}``, no ``treasure``, ``bury`` or ``keep``),
    ``revealed: null``, ``automatic`` and ``at``. A player who has not moved yet has
    watched the whole game and sees it all. An automatic move (rules P24) played for
    the viewer counts as their move. Staff see everything; a watcher of a public game no
    more than any player at the table; everyone everything once the game has ended
    (finished or aborted).

    This is the only way a player-facing log may be built: the API, the turn email's
    recap and the pages all call it, so none of them can show more than the ruling allows.
    """
    if moves is None:
        moves = moves_at_version(game)
    first_full = first_full_entry(game, viewer_seat, moves, watcher=watcher)
    rules = game.rules
    return [move.public_entry(rules, reduced=move.number < first_full) for move in moves]


def log_to_describe(
    game: Game,
    viewer_seat: int | None,
    moves: Sequence[Move] | None = None,
    *,
    watcher: bool = False,
):
    """``public_log`` with each entry's ``actor`` (who played it: ``Move.actor``), for the
    words of pages and emails only (``games.describe``): a moderator's forced automatic
    move is told apart from one the deadline brought. Never the API's log."""
    if moves is None:
        moves = moves_at_version(game)
    entries = public_log(game, viewer_seat, moves, watcher=watcher)
    return [{**entry, "actor": move.actor} for entry, move in zip(entries, moves, strict=True)]


def moves_at_version(game: Game) -> list[Move]:
    """The moves of ``game`` up to its loaded ``version``, in order: a page or answer built
    from this ``game`` tells the log as of the table it shows, even when a later move
    commits while it is being built (no request holds a snapshot of the database)."""
    return list(Move.objects.filter(game=game, number__lte=game.version).order_by("number"))


def first_full_entry(
    game: Game, viewer_seat: int | None, moves: Sequence[Move], *, watcher: bool = False
) -> int:
    """The ``number`` of the oldest entry ``viewer_seat`` sees in full (see ``public_log``).

    1 (every entry) unless the game is blind and still active, and the viewer holds a seat
    and has moved (then the number of their last move), or is a ``watcher``.

    A watcher (a spectator of a public game: no seat, not staff) sees what every player
    at the table has seen since their own last move, and no more, so that nobody learns
    more by watching their own game: the latest entry only (the last move of the seat
    that moved last), as someone beside the table sees each move once, when it is
    played. Rules P23.
    """
    if not game.blind or game.status != GameStatus.ACTIVE:
        return 1
    if watcher:
        return moves[-1].number if moves else 1
    if viewer_seat is None:
        return 1
    own = [move.number for move in moves if move.seat == viewer_seat]
    return max(own, default=1)
