"""Fixtures for the rules tests: staging exact Piratz situations without a database.

Scenario tests name cards of the packaged deck by id (rats 1-10, skulls 7 17 26 29 40 47;
e.g. 20 shows 2 rings, 32 rings+coins); see games/kinds/piratz/rules/deck.json.
"""

import pytest

from games.kinds.piratz import rules as piratz
from games.kinds.piratz.rules.deck import DECK


def _stage(
    players=3,
    *,
    face_up=(),
    draw=None,
    discard=(),
    buried=(),
    collected=None,
    spades=None,
    current=0,
    phase="turn",
    round=1,
    last_round=None,
    finished=False,
    blind=False,
    rest="draw",
    cubes=None,
    seed=0,
):
    """Build a consistent State through ``load`` with the cards exactly where asked.

    Cards not placed explicitly go to ``rest``: ``"draw"`` (below the given draw cards),
    ``"discard"``, or a seat number (that seat's collection). ``last_round`` defaults to
    "the draw pile is empty"; spades default to held by every seat that buried nothing.
    ``cubes`` (type -> values, highest first) defaults to the seed's placement.
    """
    collected = [list(cards) for cards in (collected or [()] * players)]
    draw = list(draw or ())
    discard = list(discard)
    placed = set(face_up) | set(draw) | set(discard) | {card for _, card in buried}
    placed.update(card for cards in collected for card in cards)
    in_play = DECK.ids if players > 2 else DECK.ids_without_skulls
    leftover = [card for card in in_play if card not in placed]
    if rest == "draw":
        draw += leftover
    elif rest == "discard":
        discard += leftover
    else:
        collected[rest] += leftover
    if spades is None:
        spades = [True] * players
        for seat, _ in buried:
            spades[seat] = False
    data = piratz.dump(piratz.new_game(players, seed=seed, blind=blind))
    data.update(
        round=round,
        current_seat=None if finished else current,
        phase=None if finished else phase,
        last_round=(not draw) if last_round is None else last_round,
        finished=finished,
        draw=draw,
        discard=discard,
        face_up=list(face_up),
        buried=[[seat, card] for seat, card in buried],
        spades=list(spades),
        collected=collected,
    )
    if cubes is not None:
        data["cubes"] = {name: list(cubes[name]) for name in piratz.TREASURES}
    return piratz.load(data)


def _play(state, *actions):
    """Apply each action for whoever is to move and return the final state."""
    for action in actions:
        state = piratz.apply(state, piratz.current_seat(state), action)
    return state


@pytest.fixture
def stage():
    """The situation builder (see ``_stage``)."""
    return _stage


@pytest.fixture
def play():
    """Apply a sequence of actions, each for the seat to move."""
    return _play
