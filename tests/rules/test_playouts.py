"""Hypothesis playouts: whole random games over 2-4 players and blind mode keep every invariant."""

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from games.kinds.piratz import rules as piratz
from games.kinds.piratz.rules.bots import random_action as choose_action
from games.kinds.piratz.rules.deck import DECK

MAX_MOVES = 2000  # a game with frequent reveals ends far sooner (about 120 moves)


def check_invariants(state):
    players = state.players
    # Every card in play is in exactly one place (P6: no skulls with two players).
    places = [*state.draw, *state.discard, *state.face_up, *(c for _, c in state.buried)]
    for cards in state.collected:
        places.extend(cards)
    assert sorted(places) == list(DECK.ids if players > 2 else DECK.ids_without_skulls)
    # Exactly one seat may act until the end, then none.
    movers = [seat for seat in range(players) if piratz.legal_actions(state, seat)]
    assert movers == ([] if state.finished else [state.current])
    # P11: at most one rat face up outside an alarm, exactly two in one.
    rats = sum(DECK.rat[c] for c in state.face_up)
    assert rats == 2 if state.phase == "alarm" else rats <= 1
    # State is a value that survives its JSON form.
    data = piratz.dump(state)
    assert piratz.load(json.loads(json.dumps(data))) == state
    check_views(state)


# A key naming a draw pile that holds a list, at any depth of a view's JSON text (read off
# the text: walking each view's nested values made that check most of a playout's time).
DRAW_KEY_WITH_A_LIST = re.compile(r'"[^"]*draw[^"]*":\s*\[')


def check_views(state):
    order = json.dumps(list(state.draw))
    for seat in [None, *range(state.players)]:
        view = piratz.view(state, seat)
        text = json.dumps(view)
        # P23: the draw order never leaks. Only lists of three or more ids could give it
        # away, and no such int list exists in a view before the result is shown.
        if len(state.draw) >= 3 and not state.finished:
            assert order not in text
        assert not DRAW_KEY_WITH_A_LIST.search(text)
        if state.blind and not state.finished:
            assert view["unseen"] is None
            assert all(entry["cards"] is None for entry in view["collected"])
        assert [entry["count"] for entry in view["collected"]] == [
            len(cards) for cards in state.collected
        ]
        if seat is not None:
            assert view["legal_actions"] == piratz.legal_actions(state, seat)


def candidate_actions(rng, state):
    """Random actions, mostly well-formed, many of them illegal now."""
    ids = [*state.face_up, *(c for _, c in state.buried), rng.randint(-1, 52), None, True]
    treasures = [*piratz.TREASURES, "gold", 3]
    candidates = [
        {"action": "reveal"},
        {"action": "end_turn"},
        {"action": "pass", "treasure": rng.choice(treasures), "bury": rng.choice(ids)},
        {"action": "resolve_alarm", "keep": rng.choice(ids), "bury": rng.choice(ids)},
        {"action": rng.choice(["reveal", "pass", "dance"]), "bury": rng.choice(ids)},
        rng.choice([None, [], "reveal", {}]),
    ]
    return candidates


def rejection(state, seat, action):
    """The IllegalAction code ``apply`` raises for this action, or None when it applies."""
    try:
        piratz.apply(state, seat, action)
    except piratz.IllegalAction as error:
        return error.code
    return None


def check_moves(rng, state, legal):
    """Every legal action applies; a random candidate applies exactly when it is legal."""
    for action in legal:
        piratz.apply(state, state.current, action)
    assert piratz.timeout_action(state) in legal
    before = piratz.dump(state)
    for action in candidate_actions(rng, state):
        is_legal = (
            isinstance(action, dict)
            and action in legal
            and not any(type(value) is bool for value in action.values())
        )
        for seat in range(state.players):
            code = rejection(state, seat, action)
            if is_legal and seat == state.current:
                assert code is None, (action, code)
            elif seat == state.current:
                assert code is not None, action
            else:
                assert code in ("malformed_action", "unknown_action", "not_your_turn"), action
    assert piratz.dump(state) == before


def play_out(players, seed, blind, rng, reveal_bias):
    state = piratz.new_game(players, seed=seed, blind=blind)
    last_round_seen = False
    for _ in range(MAX_MOVES):
        check_invariants(state)
        if piratz.is_finished(state):
            return state
        legal = piratz.legal_actions(state, state.current)
        check_moves(rng, state, legal)
        before = piratz.dump(state)
        after = piratz.apply(state, state.current, choose_action(legal, rng, reveal_bias))
        assert piratz.dump(state) == before  # apply never mutates its input
        assert after.round >= state.round
        last_round_seen = last_round_seen or state.last_round
        assert after.last_round or not last_round_seen  # P18: once set, it stays
        state = after
    raise AssertionError(f"game did not end within {MAX_MOVES} moves")


def check_result(state):
    result = piratz.view(state, None)["result"]
    total = 0
    for index, treasure in enumerate(piratz.TREASURES):
        values = [award["value"] for award in result["awards"][treasure]]
        assert values == list(state.cubes[index][: len(values)])  # highest first (P21)
        total += sum(values)
    assert total <= sum(sum(values) for values in state.cubes)
    scores = [player["score"] for player in result["players"]]
    assert sum(scores) == total
    assert result["winners"] == [s for s, score in enumerate(scores) if score == max(scores)]


@settings(max_examples=120, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(min_value=0, max_value=2**64),
    blind=st.booleans(),
    rng=st.randoms(use_true_random=False),
    reveal_bias=st.floats(min_value=0.5, max_value=0.95),
)
def test_random_playouts_keep_every_invariant(players, seed, blind, rng, reveal_bias):
    state = play_out(players, seed, blind, rng, reveal_bias)
    check_result(state)


@settings(max_examples=150, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(min_value=0, max_value=2**64),
    rng=st.randoms(use_true_random=False),
)
def test_random_playouts_always_finish_with_a_consistent_result(players, seed, rng):
    state = piratz.new_game(players, seed=seed)
    moves = 0
    while not piratz.is_finished(state):
        legal = piratz.legal_actions(state, state.current)
        state = piratz.apply(state, state.current, choose_action(legal, rng, 0.8))
        moves += 1
        assert moves < MAX_MOVES
    check_result(state)
    assert piratz.load(piratz.dump(state)) == state
