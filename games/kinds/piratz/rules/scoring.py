"""Final scoring: majorities per treasure type, tie-breaks, cubes and winners (rules P19-P22)."""

from functools import lru_cache

from .deck import DECK, TREASURES

# Per card: its six item counts (P1 order), 1 if it is a rat, and 1 for the card itself,
# so one column sum over a collection gives items, rats and cards together (P19).
_TALLY = tuple(items + (int(rat), 1) for items, rat in zip(DECK.items, DECK.rat, strict=True))
_EMPTY = (0,) * (len(TREASURES) + 2)
_TYPES = len(TREASURES)


@lru_cache(maxsize=512)
def _score(collected, cubes):
    """The scoring numbers for these collections and cube placement, as tuples.

    Cached because a finished game's view is asked for again and again (every seat,
    every page) and the inputs are hashable tuples; the result is immutable so sharing
    it is safe. Returns ``(tallies, awards)``: per seat ``(items..., rats, cards)``, and
    per type the ``(seat, value)`` awards in order.
    """
    tallies = tuple(
        tuple(sum(column) for column in zip(*map(_TALLY.__getitem__, cards), strict=True))
        if cards
        else _EMPTY
        for cards in collected
    )
    awards = []
    for index in range(_TYPES):
        # P20: only players holding the type rank: more items, more rats, fewer cards.
        ranked = sorted(
            (-tally[index], -tally[_TYPES], tally[_TYPES + 1], seat)
            for seat, tally in enumerate(tallies)
            if tally[index]
        )
        given = []
        # P21: cubes go highest value first, one per player down the ranking.
        for place, value in enumerate(cubes[index]):
            if place >= len(ranked):
                break
            if place + 1 < len(ranked) and ranked[place + 1][:3] == ranked[place][:3]:
                # P20: a full tie where a cube would go ends this type's awards.
                break
            given.append((ranked[place][3], value))
        awards.append(tuple(given))
    return tallies, tuple(awards)


def result(state):
    """Score the collections: a fresh ``result`` dict (docs/api.md "The engine's entry points").

    Works on any state (the view only shows it once the game is finished):
    ``{"players": [{"seat", "items", "rats", "cards", "cubes", "score"}, ...],
    "awards": {type: [{"seat", "value"}, ...]}, "winners": [seat, ...]}``.
    A player's ``cubes`` are listed in the order they were awarded (P1 type order).
    """
    tallies, awards = _score(state.collected, state.cubes)
    won: list[list[int]] = [[] for _ in tallies]
    for given in awards:
        for seat, value in given:
            won[seat].append(value)
    scores = [sum(values) for values in won]
    best = max(scores)
    return {
        "players": [
            {
                "seat": seat,
                "items": dict(zip(TREASURES, tally[:_TYPES], strict=True)),
                "rats": tally[_TYPES],
                "cards": tally[_TYPES + 1],
                "cubes": won[seat],
                "score": scores[seat],
            }
            for seat, tally in enumerate(tallies)
        ],
        "awards": {
            treasure: [{"seat": seat, "value": value} for seat, value in given]
            for treasure, given in zip(TREASURES, awards, strict=True)
        },
        # P22: everybody tied for the highest score shares the victory.
        "winners": [seat for seat, score in enumerate(scores) if score == best],
    }


def scores(state):
    """Each seat's total cube value (P22), in seat order."""
    return [player["score"] for player in result(state)["players"]]
