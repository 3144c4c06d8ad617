"""Final scoring: majorities per treasure type, tie-breaks, cubes and winners (rules P19-P22)."""

from .deck import DECK, TREASURES

_ITEMS = DECK.items
_RAT = DECK.rat


def result(state):
    """Score the players' collections and return the CONTRACT ``result`` dict.

    Works on any state (the view only shows it once the game is finished):
    ``{"players": [{"seat", "items", "rats", "cards", "cubes", "score"}, ...],
    "awards": {type: [{"seat", "value"}, ...]}, "winners": [seat, ...]}``.
    A player's ``cubes`` are listed in the order they were awarded (P1 type order).
    """
    players = state.players
    counts = []
    rats = []
    cards = []
    for collection in state.collected:
        # P19: items per type, every rat card in the collection, and the number of cards.
        totals = [0] * len(TREASURES)
        for card in collection:
            for index, n in enumerate(_ITEMS[card]):
                totals[index] += n
        counts.append(totals)
        rats.append(sum(_RAT[card] for card in collection))
        cards.append(len(collection))
    won = [[] for _ in range(players)]
    awards = {}
    for index, treasure in enumerate(TREASURES):
        awards[treasure] = given = []
        # P20: only players holding the type rank: more items, more rats, fewer cards.
        ranked = sorted(
            (-counts[seat][index], -rats[seat], cards[seat], seat)
            for seat in range(players)
            if counts[seat][index]
        )
        # P21: cubes go highest value first, one per player down the ranking.
        for place, value in enumerate(state.cubes[index]):
            if place >= len(ranked):
                break
            keys = ranked[place][:3]
            if place + 1 < len(ranked) and ranked[place + 1][:3] == keys:
                # P20: a full tie where a cube would go ends this type's awards.
                break
            seat = ranked[place][3]
            given.append({"seat": seat, "value": value})
            won[seat].append(value)
    scores = [sum(values) for values in won]
    best = max(scores)
    return {
        "players": [
            {
                "seat": seat,
                "items": dict(zip(TREASURES, counts[seat], strict=True)),
                "rats": rats[seat],
                "cards": cards[seat],
                "cubes": won[seat],
                "score": scores[seat],
            }
            for seat in range(players)
        ],
        "awards": awards,
        # P22: everybody tied for the highest score shares the victory.
        "winners": [seat for seat in range(players) if scores[seat] == best],
    }


def scores(state):
    """Each seat's total cube value (P22), in seat order."""
    return [player["score"] for player in result(state)["players"]]
