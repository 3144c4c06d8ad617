"""Who holds the host's chair (pause, resume, extend a turn, a bot for an absent player).

The host holds it while they are still in the game. Once they have left it (resigned,
P26, or deleted their account) it passes to the next person still in the game in seat
order after the host's seat, round the table; with nobody left, the controls end
(docs/decisions/0005-the-chair-after-the-host-leaves.md). Derived from the seats, never
stored: resigning and erasure are final, so the holder changes only when one of them
happens (``games.actions.together.hand_on_the_chair`` tells the players then).
"""

from games.models import Game, Seat


def still_in_game(row: Seat, *, leaving_id: int | None = None) -> bool:
    """Whether a person still plays ``row``'s seat: not a bot's own seat, not resigned
    (P26, R37), not an erased account, and not ``leaving_id`` (the account being erased
    right now, whose ``erased_at`` is set only after the apps' erasers ran). A stand-in
    bot for an absent player keeps them in: they may take their seat back. Reads the
    seat's user (the callers' seats come with their users)."""
    if row.user_id is None or row.user_id == leaving_id or row.resigned:
        return False
    assert row.user is not None  # a user id
    return row.user.erased_at is None


def chair_seat(game: Game, seats: list[Seat], *, leaving_id: int | None = None) -> Seat | None:
    """The seat among ``game``'s ``seats`` whose player holds the host's chair: the host's
    own while they are still in the game (``still_in_game``), else the first seat after it
    in seat order, round the table, that still is; None when nobody is, or the host holds
    no seat (nobody has the controls then)."""
    ordered = sorted(seats, key=lambda row: row.seat)
    start = next((i for i, row in enumerate(ordered) if row.user_id == game.host_id), None)
    if start is None:
        return None
    round_the_table = ordered[start:] + ordered[:start]
    return next((row for row in round_the_table if still_in_game(row, leaving_id=leaving_id)), None)
