"""A checkable shuffle: the commitment, the key from all seeds, and re-deriving a game's deal."""

import random

import pytest

from games.kinds.piratz import rules as piratz
from games.kinds.piratz.rules.bots import random_action
from games.kinds.piratz.rules.shuffle import derive_key

SEED = bytes(range(32))


def _played(players, key, rng, *, reveal_bias=0.9):
    """Play a random game with ``key``; return its final state and public log (with rounds)."""
    state = piratz.new_game(players, key=key)
    log = []
    while not piratz.is_finished(state):
        seat = piratz.current_seat(state)
        action = random_action(piratz.legal_actions(state, seat), rng, reveal_bias)
        after = piratz.apply(state, seat, action)
        card = piratz.move_effects(state, after, seat, action)["revealed"]
        log.append(
            {
                "number": len(log) + 1,
                "round": piratz.round_number(state),
                "action": action,
                "revealed": None if card is None else card["id"],
            }
        )
        state = after
    return state, log


def _cubes(state):
    return {name: list(values) for name, values in zip(piratz.TREASURES, state.cubes, strict=True)}


def test_int_seeds_deal_as_the_key_they_derive():
    for players in (2, 3, 4):
        for seed in range(20):
            by_seed = piratz.new_game(players, seed=seed)
            assert piratz.new_game(players, key=derive_key(seed)) == by_seed


def test_seed_and_key_together_or_a_short_key_are_refused():
    with pytest.raises(ValueError, match="not both"):
        piratz.new_game(2, seed=1, key=SEED)
    with pytest.raises(ValueError, match="32 bytes"):
        piratz.new_game(2, key=b"short")


def test_commitment_is_a_prefixed_sha256_of_the_seed():
    import hashlib

    assert (
        piratz.shuffle_commitment(SEED)
        == hashlib.sha256(b"piratz-shuffle-commitment:v1:" + SEED).hexdigest()
    )
    assert piratz.shuffle_commitment(SEED) != piratz.shuffle_commitment(bytes(32))


def test_every_client_seed_and_its_seat_change_the_key():
    base = piratz.shuffle_key(SEED, ["abc", ""])
    assert len(base) == 32
    assert piratz.shuffle_key(SEED, ["abd", ""]) != base
    assert piratz.shuffle_key(SEED, ["", "abc"]) != base
    # Length prefixes: moving a character from one seed to the next is another key.
    assert piratz.shuffle_key(SEED, ["ab", "c"]) != piratz.shuffle_key(SEED, ["a", "bc"])
    assert piratz.shuffle_key(SEED, ["abc"]) != base
    assert piratz.shuffle_key(bytes(32), ["abc", ""]) != base


@pytest.mark.parametrize("text", ["", "a" * 65, "has space", "ümlaut", 12, None, "a\n"])
def test_client_seeds_are_short_and_plain(text):
    assert not piratz.is_client_seed(text)
    if text != "":  # "" is how a seat without a client seed enters the key
        with pytest.raises(ValueError, match="not a client seed"):
            piratz.shuffle_key(SEED, [text])


def test_client_seed_alphabet():
    assert piratz.is_client_seed("Az09-_" * 10 + "abcd")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_played_games_match_their_rederived_shuffles(players):
    rng = random.Random(players)
    reshuffled = 0
    for number in range(15):
        key = piratz.shuffle_key(SEED, [f"seat{number}-{seat}" for seat in range(players)])
        state, log = _played(players, key, rng)
        checked = piratz.check_deal(players, key, _cubes(state), log)
        assert checked["mismatches"] == []
        reshuffles = [s for s in checked["shuffles"] if s["label"] == "reshuffle"]
        assert len(reshuffles) == state.reshuffles
        reshuffled += state.reshuffles
        first = next(entry["revealed"] for entry in log if entry["revealed"] is not None)
        assert checked["shuffles"][0]["order"][0] == first
    assert reshuffled > 0, "no game reshuffled: the reshuffle path went unchecked"


def test_a_tampered_log_cubes_or_key_do_not_check():
    key = piratz.shuffle_key(SEED, ["x", "y", "z"])
    state, log = _played(3, key, random.Random(7))
    cubes = _cubes(state)
    reveals = [entry for entry in log if entry["revealed"] is not None]
    changed = dict(reveals[3], revealed=reveals[4]["revealed"])
    tampered = [changed if entry is reveals[3] else entry for entry in log]
    found = piratz.check_deal(3, key, cubes, tampered)["mismatches"]
    assert [(m["what"], m["number"]) for m in found] == [("revealed", changed["number"])]

    swapped = dict(cubes, rings=cubes["coins"], coins=cubes["rings"])
    if swapped != cubes:
        assert piratz.check_deal(3, key, swapped, log)["mismatches"][0]["what"] == "cubes"
    other = piratz.shuffle_key(SEED, ["x", "y", "w"])
    assert piratz.check_deal(3, other, cubes, log)["mismatches"]
