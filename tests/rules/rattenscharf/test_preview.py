"""Placement previews for the table page (R20, R22), computed from the public view only."""

import random

from games.kinds.rattenscharf import rules as rs
from games.kinds.rattenscharf.rules.preview import preview, previews
from games.kinds.rattenscharf.rules.state import board_of

from .helpers import GAME_A, GAME_R, act, game, play


def _after_example_1():
    return play(game(*GAME_A), act(1, 2, 0), act(3, 2, 1), act(13, 0, 0))


def test_r20_preview_of_the_printed_example_scores_both_colours():
    """Example 3: 10@(3,2)h gives red 1; then 2@(4,0)v flipped gives red 2 and green 1."""
    state = _after_example_1()
    view = rs.view(state, 0)
    first = preview(board_of(view), act(10, 3, 2))
    assert first["points"] == [1, 0]
    state = play(state, act(10, 3, 2))
    second = preview(board_of(rs.view(state, 0)), act(2, 4, 0, "v", True))
    assert second["points"] == [2, 1]
    assert [e["spice"] for e in second["scoring"]] == ["red:paprika", "green:jalapeno"]
    assert second["scoring"] == rs.view(play(state, act(2, 4, 0, "v", True)), None)["last_scoring"]


def test_r22_preview_counts_the_rats_visible_after_the_placement():
    """Example 5, turn 3: 33@(1,0)h covers the red rat at (3,0)."""
    state = play(game(*GAME_R), act(17, 2, 0), act(20, -1, 1), act(18, 2, 1))
    view = rs.view(state, 0)
    assert view["visible_rats"] == [2, 1]
    assert preview(board_of(view), act(33, 1, 0))["rats"] == [1, 1]
    assert preview(board_of(view), act(24, -1, 2))["rats"] == [3, 1]


def test_previews_match_what_apply_does_for_every_legal_action():
    """Random positions: each preview equals the scores and rats after ``apply``."""
    rng = random.Random(5)
    state = rs.new_game(seed=11)
    for _ in range(12):
        seat = rs.current_seat(state)
        view = rs.view(state, seat)
        found = previews(view)
        assert len(found) == len(view["legal_actions"])
        for action, seen in list(zip(view["legal_actions"], found, strict=True))[::7]:
            after = rs.apply(state, seat, action)
            gained = [a - b for a, b in zip(rs.scores(after), view["scores"], strict=True)]
            assert seen["points"] == gained
            assert seen["rats"] == list(after.board.rats)
        state = rs.apply(state, seat, rng.choice(view["legal_actions"]))


def test_previews_read_nothing_but_the_board():
    """The same placements with another pile and hand give the same board (R33)."""
    view = rs.view(_after_example_1(), 0)
    secretless = {"placements": view["placements"], "legal_actions": view["legal_actions"]}
    assert previews(secretless) == previews(view)
    assert previews({**view, "legal_actions": []}) == []
