"""Rattenscharf bots (games.kinds.rattenscharf.rules.bots): legal, reproducible, careful
with rats."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.kinds.rattenscharf import rules as rs
from games.kinds.rattenscharf.rules import bots
from games.kinds.rattenscharf.rules.board import legal_windows, place, window
from games.kinds.rattenscharf.rules.strips import STRIP_IDS
from games.simulation import play_bot_game, tournament
from tests.rules.bot_checks import checked_choice

from .helpers import GAME_R, act, game, play

VIEW_KEYS = set(rs.view(rs.new_game(seed=1), 0))


def test_the_rules_package_offers_the_bots_by_their_registry_names():
    assert rs.BOT_LEVELS == ("random", "careful", "strong")
    assert rs.choose_bot_action is bots.choose_action


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    levels=st.lists(st.sampled_from(["random", "careful"]), min_size=2, max_size=2),
    seed=st.integers(0, 2**32),
)
def test_random_and_careful_bots_play_whole_games_legally(levels, seed):
    seen = set()
    # apply raises IllegalAction on an illegal action (R28-R30), and play_bot_game raises
    # if the game does not end.
    record = play_bot_game(
        levels, seed=seed, choose=checked_choice(rs, VIEW_KEYS, seen), game="rattenscharf"
    )
    assert record.winners and len(record.scores) == 2
    assert seen == set(levels)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    other=st.sampled_from(rs.BOT_LEVELS), strong_seat=st.integers(0, 1), seed=st.integers(0, 2**32)
)
def test_games_with_a_strong_bot_are_played_legally_to_the_end(other, strong_seat, seed):
    levels = [other]
    levels.insert(strong_seat, "strong")
    seen = set()
    record = play_bot_game(
        levels, seed=seed, choose=checked_choice(rs, VIEW_KEYS, seen), game="rattenscharf"
    )
    assert record.winners and "strong" in seen


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_the_bots_quick_placement_effect_is_the_engines(seed, choices):
    """bots._effect (points per seat, R20; visible rats, R22) equals what apply does."""
    rng = random.Random(choices)
    state = rs.new_game(seed=seed)
    while not rs.is_finished(state):
        seat = rs.current_seat(state)
        legal = rs.legal_actions(state, seat)
        for action in rng.sample(legal, min(8, len(legal))):
            gained, rats = bots._effect(
                state.board.grid,
                state.board.rats,
                action["strip"],
                action["x"],
                action["y"],
                action["orientation"],
                action["flip"],
            )
            after = rs.apply(state, seat, action)
            expected = [0, 0]
            for owner, _, _, points in after.last_scoring:
                expected[owner] += points
            assert (gained, rats) == (expected, after.board.rats)
        # Careful play reaches crowded tables where groups change and rats are covered.
        state = rs.apply(state, seat, rs.choose_bot_action(rs.view(state, seat), "careful", rng))


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_the_second_strips_effect_reused_from_before_the_turn_is_the_fresh_one(seed, choices):
    """strong's second strip: ``_SecondStrips.effect`` (worked out on the table before the
    turn, reused where the first strip changed nothing it read) equals ``_effect`` on the
    table after the first strip, for every window and flip after a few first strips."""
    rng = random.Random(choices)
    state = rs.new_game(seed=seed)
    while not rs.is_finished(state):
        seat = rs.current_seat(state)
        legal = rs.legal_actions(state, seat)
        board = state.board
        seconds = bots._SecondStrips(board)
        strip = rng.choice(STRIP_IDS)  # the second strip, as in a turn: reused per window
        for first in rng.sample(legal, min(4, len(legal))):
            after, _ = place(board, *bots._parts(first))
            changed = set(window(first["x"], first["y"], first["orientation"]))
            for x, y, orientation in legal_windows(after):
                for flip in (False, True):
                    fresh = bots._effect(after.grid, after.rats, strip, x, y, orientation, flip)
                    reused = seconds.effect(after, changed, strip, window(x, y, orientation), flip)
                    assert reused == fresh, (first, strip, x, y, orientation, flip)
        state = rs.apply(state, seat, rs.choose_bot_action(rs.view(state, seat), "careful", rng))


@pytest.mark.parametrize("level", rs.BOT_LEVELS)
def test_a_fixed_rng_gives_the_same_decisions(level):
    state = play(game(*GAME_R), act(17, 2, 0), act(20, -1, 1), act(18, 2, 1))
    view = rs.view(state, 0)
    first = rs.choose_bot_action(view, level, random.Random(7))
    assert rs.choose_bot_action(view, level, random.Random(7)) == first
    # Whole games too.
    one = play_bot_game(("strong", level), seed=3, game="rattenscharf")
    assert play_bot_game(("strong", level), seed=3, game="rattenscharf") == one


def test_random_is_uniform_over_the_legal_actions():
    view = rs.view(rs.new_game(seed=4), 0)
    picks = {
        tuple(sorted(rs.choose_bot_action(view, "random", random.Random(n)).items()))
        for n in range(200)
    }
    assert len(picks) > len(view["legal_actions"]) // 2  # not a fixed or biased choice


def test_an_unknown_level_or_a_view_without_moves_is_refused():
    state = rs.new_game(seed=2)
    with pytest.raises(ValueError, match="unknown bot level"):
        rs.choose_bot_action(rs.view(state, 0), "genius", random.Random(1))
    for level in rs.BOT_LEVELS:
        with pytest.raises(ValueError, match="no legal actions"):
            rs.choose_bot_action(rs.view(state, 1), level, random.Random(1))  # seat 0 to move
        with pytest.raises(ValueError, match="no legal actions"):
            rs.choose_bot_action(rs.view(state, None), level, random.Random(1))


# --- rats (R22, R23) ------------------------------------------------------------------------


def red_turn_3():
    """Game R (docs/rules/rattenscharf.md, Example 5) at the start of turn 3: red shows 2 red rats
    and holds strip 24 (a red rat) and strip 33."""
    state = play(game(*GAME_R), act(17, 2, 0), act(20, -1, 1), act(18, 2, 1))
    assert (state.current, state.hand, state.board.rats[0]) == (0, (24, 33), 2)
    return state


def loses_to_rats(state):
    return state.finished and state.reason == "rats" and state.rat_loser == 0


@pytest.mark.parametrize("level", ["careful", "strong"])
def test_careful_and_strong_cover_a_third_rat_with_the_turns_last_strip(level):
    # R22: 24@(-1,2)h shows a third red rat; 33 must now cover one of them.
    state = play(red_turn_3(), act(24, -1, 2))
    legal = rs.legal_actions(state, 0)
    losing = [a for a in legal if loses_to_rats(rs.apply(state, 0, a))]
    assert len(losing) > 0.9 * len(legal)  # a random strip loses nine times in ten
    action = rs.choose_bot_action(rs.view(state, 0), level, random.Random(1))
    assert action not in losing


@pytest.mark.parametrize("level", ["careful", "strong"])
def test_careful_and_strong_plan_a_two_strip_turn_that_ends_below_three_rats(level):
    state = red_turn_3()
    rng = random.Random(1)
    for _ in range(2):
        state = rs.apply(state, 0, rs.choose_bot_action(rs.view(state, 0), level, rng))
    assert not state.finished and state.board.rats[0] < 3


def test_random_loses_that_turn_to_rats():
    lost = 0
    for seed in range(20):
        state, rng = red_turn_3(), random.Random(seed)
        for _ in range(2):
            state = rs.apply(state, 0, rs.choose_bot_action(rs.view(state, 0), "random", rng))
        lost += loses_to_rats(state)
    assert lost >= 15


def test_careful_refuses_a_first_strip_after_which_the_second_cannot_save_the_turn():
    """R22 at the end of the turn, not after each strip: careful's best-scoring first
    placement here (26@(0,-2)v flipped) leaves green with no way to end below 3 rats."""
    state = play(
        rs.new_game(seed=1),
        act(32, -1, -1),
        act(41, -3, 1, flip=True),
        act(13, -1, -2, flip=True),
        act(31, -1, -1, "v"),
        act(40, 0, 1),
    )
    assert (state.turn, state.current, len(state.hand)) == (4, 1, 2)
    trap = act(26, 0, -2, "v", flip=True)
    after = rs.apply(state, 1, trap)
    assert all(rs.apply(after, 1, a).rat_loser == 1 for a in rs.legal_actions(after, 1))

    for level in ("careful", "strong"):
        action = rs.choose_bot_action(rs.view(state, 1), level, random.Random(1))
        assert action != trap
        after = rs.apply(state, 1, action)
        assert any(not rs.apply(after, 1, a).finished for a in rs.legal_actions(after, 1))


@pytest.mark.parametrize("level", ["careful", "strong"])
def test_when_every_placement_loses_the_bots_lay_the_fewest_rats(level, monkeypatch):
    # No real table makes every placement lose, so lower the limit the bots plan against:
    # with 1, every placement of 33 "loses", and the fewest rats is still the best try.
    state = play(red_turn_3(), act(24, -1, 2))
    monkeypatch.setattr(bots, "RAT_LIMIT", 1)
    action = rs.choose_bot_action(rs.view(state, 0), level, random.Random(2))
    fewest = min(rs.apply(state, 0, a).board.rats[0] for a in rs.legal_actions(state, 0))
    assert rs.apply(state, 0, action).board.rats[0] == fewest == 2


# --- strength -------------------------------------------------------------------------------


@pytest.mark.slow
def test_strong_beats_random_and_careful_in_a_seeded_tournament():
    stats = tournament(rs.BOT_LEVELS, 72, 2, seed=2026, game="rattenscharf")
    summary = stats.summary()
    rates = {row["level"]: row["win_rate"] for row in summary["levels"]}
    assert rates["strong"] > rates["careful"] > rates["random"]
    pairs = {(pair["better"], pair["worse"]): pair for pair in summary["pairs"]}
    assert pairs[("strong", "random")]["significant"]
    assert pairs[("careful", "random")]["significant"]
    assert pairs[("strong", "careful")]["significant"]
