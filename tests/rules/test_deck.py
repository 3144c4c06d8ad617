"""The deck file: loaded as package data and validated against rules P1-P3."""

import copy
import json
from importlib import resources

import pytest

from games.kinds.piratz.rules import deck


def raw_deck():
    text = resources.files("games.kinds.piratz.rules").joinpath("deck.json").read_text("utf-8")
    return json.loads(text)


def test_the_packaged_deck_is_valid_and_loaded():
    loaded = deck.validate_deck(raw_deck())
    assert loaded.ids == tuple(range(1, 51))
    assert len(loaded.ids_without_skulls) == 44
    assert loaded.items[32] == (1, 1, 0, 0, 0, 0)
    assert loaded.total[20] == 2 and loaded.rat[1] and loaded.skull[7]
    assert 32 in loaded.shows[0] and 32 in loaded.shows[1] and 32 not in loaded.shows[2]


def test_card_order_in_the_file_does_not_matter():
    raw = raw_deck()
    raw["cards"].reverse()
    assert deck.validate_deck(raw).items == deck.DECK.items


def _card(index, **values):
    def change(raw):
        raw["cards"][index].update(values)

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda raw: raw.pop("cards"), "exactly the keys"),
        (lambda raw: raw.update(game="chess"), "not 'piratz'"),
        (lambda raw: raw["treasure_types"].reverse(), "P1"),
        (lambda raw: raw["cube_values"].pop(), "P3"),
        (lambda raw: raw["cards"].pop(), "P2"),
        (lambda raw: raw.update(cards={}), "P2"),
        (lambda raw: raw["cards"][0].pop("rat"), "exactly the keys"),
        (lambda raw: raw["cards"].__setitem__(0, "card"), "exactly the keys"),
        (_card(0, id=2), "not a new id"),
        (_card(0, id=0), "not a new id"),
        (_card(0, id=True), "not a new id"),
        (_card(0, treasures={"gold": 1}), "map treasure types"),
        (_card(0, treasures=[1]), "map treasure types"),
        (_card(0, treasures={"rings": 0}), "positive integers"),
        (_card(0, treasures={"rings": True}), "positive integers"),
        (_card(0, treasures={}), "1 or 2 items"),
        (_card(0, treasures={"rings": 2, "coins": 1}), "1 or 2 items"),
        (_card(0, rat=1), "true or false"),
        (_card(0, skull=None), "true or false"),
        (_card(0, rat=False), "rat cards"),
        (_card(0, skull=True), "skull cards"),
    ],
)
def test_an_invalid_deck_is_refused_with_the_reason(change, message):
    raw = copy.deepcopy(raw_deck())
    change(raw)
    with pytest.raises(deck.DeckError, match=message):
        deck.validate_deck(raw)


def test_a_deck_that_is_not_an_object_is_refused():
    with pytest.raises(deck.DeckError):
        deck.validate_deck([])
