"""What a seat (or a spectator) may see: the view (docs/api.md "The engine's entry points", P23)."""

from .deck import DECK, TREASURES
from .engine import legal_actions
from .errors import IllegalAction
from .scoring import result

_card = DECK.card


def view(state, seat):
    """Return the view of ``state`` for ``seat`` (an int seat, or None for a spectator).

    The draw pile's order never appears; in blind mode collections' cards and the unseen
    set are null until the game is finished (P23). Every dict and list in it is new, so
    callers may change it freely. Raises ``IllegalAction("unknown_seat")`` for a seat
    that is not in the game.
    """
    players = state.players
    if seat is not None and (type(seat) is not int or not 0 <= seat < players):
        raise IllegalAction("unknown_seat", f"there is no seat {seat!r} in this game")
    finished = state.finished
    open_cards = finished or not state.blind
    if open_cards:
        collected = [
            {"count": len(cards), "cards": [_card(c) for c in cards]} for cards in state.collected
        ]
        # A set in the physical game, so sorted by id: never the draw order.
        unseen = [_card(c) for c in sorted(state.draw + state.discard)]
    else:
        collected = [{"count": len(cards), "cards": None} for cards in state.collected]
        unseen = None
    if finished:
        scored = result(state)
        # Awarded cubes leave the score card; awards take each type's highest cubes.
        awards = scored["awards"]
        cubes = {
            name: list(values[len(awards[name]) :])
            for name, values in zip(TREASURES, state.cubes, strict=True)
        }
    else:
        scored = None
        cubes = {name: list(values) for name, values in zip(TREASURES, state.cubes, strict=True)}
    return {
        "game": "piratz",
        "players": players,
        "seat": seat,
        "status": "finished" if finished else "active",
        "round": state.round,
        "current_seat": state.current,
        "phase": state.phase,
        "last_round": state.last_round,
        "draw_pile": len(state.draw),
        "discard_pile": len(state.discard),
        "face_up": [_card(c) for c in state.face_up],
        "buried": [{"seat": s, "card": _card(c)} for s, c in state.buried],
        "spades": list(state.spades),
        "cubes": cubes,
        "collected": collected,
        "unseen": unseen,
        "legal_actions": [] if seat is None else legal_actions(state, seat),
        "result": scored,
    }
