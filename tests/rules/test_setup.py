"""Setup rules P1-P8: components, seats, deck, cubes and the secret shuffle key."""

import hashlib
from collections import Counter

import pytest

from games.kinds.piratz import rules as piratz
from games.kinds.piratz.rules import shuffle
from games.kinds.piratz.rules.deck import CUBE_VALUES, DECK


def test_p1_treasure_order_is_the_score_card_order():
    assert piratz.TREASURES == ("rings", "coins", "pearls", "gems", "goblets", "shells")
    assert list(piratz.card(32)["treasures"]) == ["rings", "coins"]
    view = piratz.view(piratz.new_game(3, seed=1), 0)
    assert list(view["cubes"]) == list(piratz.TREASURES)
    passes = [a["treasure"] for a in view["legal_actions"] if a["action"] == "pass"]
    assert passes == list(piratz.TREASURES)


def test_p2_fifty_cards_with_one_or_two_items_ten_rats_six_skulls():
    cards = [piratz.card(cid) for cid in range(1, 51)]
    assert [c["id"] for c in cards] == list(range(1, 51))
    assert all(sum(c["treasures"].values()) in (1, 2) for c in cards)
    assert sum(c["rat"] for c in cards) == 10
    assert sum(c["skull"] for c in cards) == 6
    assert all(c["treasures"] for c in cards if c["rat"])  # a rat card also shows a treasure
    assert piratz.card(17) == {"id": 17, "treasures": {"goblets": 1}, "rat": False, "skull": True}


@pytest.mark.parametrize("bad", [0, 51, True, "3", None])
def test_p2_card_rejects_ids_outside_the_deck(bad):
    with pytest.raises(KeyError):
        piratz.card(bad)


def test_p3_twelve_cubes_with_the_printed_values():
    state = piratz.new_game(4, seed=3)
    assert sorted((v for values in state.cubes for v in values), reverse=True) == list(CUBE_VALUES)
    assert CUBE_VALUES == (4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_p4_every_player_has_one_spade(players):
    view = piratz.view(piratz.new_game(players, seed=5), None)
    assert view["spades"] == [True] * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_p8_spades_held_and_row_buried_discard_and_collections_empty(players):
    state = piratz.new_game(players, seed=5)
    assert state.spades == (True,) * players
    assert (state.face_up, state.buried, state.discard) == ((), (), ())
    assert state.collected == ((),) * players
    view = piratz.view(state, None)
    assert view["face_up"] == [] and view["buried"] == [] and view["discard_pile"] == 0
    assert view["collected"] == [{"count": 0, "cards": []}] * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_p5_seat_zero_starts_round_one_in_phase_turn(players):
    view = piratz.view(piratz.new_game(players, seed=9), 0)
    assert (view["round"], view["current_seat"], view["phase"]) == (1, 0, "turn")
    assert view["status"] == "active" and view["last_round"] is False
    assert view["players"] == players


def test_p6_two_players_drop_the_six_skull_cards():
    state = piratz.new_game(2, seed=1)
    assert len(state.draw) == 44
    assert not any(DECK.skull[c] for c in state.draw)
    assert sorted(state.draw) == list(DECK.ids_without_skulls)


@pytest.mark.parametrize("players", [3, 4])
def test_p6_three_or_four_players_use_all_fifty_cards_shuffled(players):
    state = piratz.new_game(players, seed=1)
    assert sorted(state.draw) == list(range(1, 51))
    assert list(state.draw) != list(range(1, 51))


def test_p6_an_int_seed_makes_the_game_reproducible():
    assert piratz.new_game(3, seed=42) == piratz.new_game(3, seed=42)
    assert piratz.new_game(3, seed=42).draw != piratz.new_game(3, seed=43).draw
    expected = hashlib.sha256(b"piratz-seed:42").hexdigest()
    assert piratz.dump(piratz.new_game(3, seed=42))["key"] == expected


def test_p6_no_seed_takes_the_key_from_the_cryptographic_rng(monkeypatch):
    calls = []

    def token_bytes(n):
        calls.append(n)
        return bytes(range(n))

    monkeypatch.setattr(shuffle.secrets, "token_bytes", token_bytes)
    state = piratz.new_game(3)
    assert calls == [32]
    assert state.key == bytes(range(32))


def test_p6_unseeded_games_differ():
    assert piratz.new_game(4).draw != piratz.new_game(4).draw


def test_p6_the_shuffle_is_a_keyed_order_of_the_cards():
    key = bytes(32)
    order = shuffle.keyed_order(key, "deck", 0, range(1, 51))
    assert order == shuffle.keyed_order(key, "deck", 0, reversed(range(1, 51)))
    assert order != shuffle.keyed_order(key, "reshuffle", 1, range(1, 51))
    assert order != shuffle.keyed_order(bytes([1]) * 32, "deck", 0, range(1, 51))


def test_p7_two_players_get_six_random_cubes_one_per_type():
    placements = set()
    for seed in range(30):
        cubes = piratz.new_game(2, seed=seed).cubes
        assert all(len(values) == 1 for values in cubes)
        assert not Counter(v for values in cubes for v in values) - Counter(CUBE_VALUES)
        placements.add(cubes)
    assert len(placements) > 20  # drawn at random, not a fixed six


@pytest.mark.parametrize("players", [3, 4])
def test_p7_three_or_four_players_place_all_twelve_two_per_type_highest_first(players):
    placements = set()
    for seed in range(30):
        state = piratz.new_game(players, seed=seed)
        assert all(len(values) == 2 and values[0] >= values[1] for values in state.cubes)
        assert sorted(v for values in state.cubes for v in values) == sorted(CUBE_VALUES)
        placements.add(state.cubes)
    assert len(placements) > 20


def test_p7_cube_placement_is_public():
    state = piratz.new_game(4, seed=8)
    views = [piratz.view(state, seat)["cubes"] for seat in (None, 0, 1, 2, 3)]
    assert all(cubes == views[0] for cubes in views)
    assert views[0]["rings"] == list(state.cubes[0])


@pytest.mark.parametrize("players", [1, 5, 0, "3", 3.0, True, None])
def test_new_game_rejects_a_player_count_outside_two_to_four(players):
    with pytest.raises(ValueError, match="players"):
        piratz.new_game(players, seed=1)


@pytest.mark.parametrize("seed", ["1", 1.5, True, b"x"])
def test_new_game_rejects_a_seed_that_is_not_an_int(seed):
    with pytest.raises(ValueError, match="seed"):
        piratz.new_game(3, seed=seed)


@pytest.mark.parametrize("blind", [1, None, "yes"])
def test_new_game_rejects_a_blind_flag_that_is_not_a_bool(blind):
    with pytest.raises(ValueError, match="blind"):
        piratz.new_game(3, seed=1, blind=blind)
