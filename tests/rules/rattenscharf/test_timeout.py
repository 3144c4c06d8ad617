"""Timeouts: R34, R35. R36 (abandonment after two fully automatic turns in a row) is the
service's job, like Piratz P25: the engine only supplies timeout_action, so it has no
engine test here."""

from games.kinds.rattenscharf import rules as rs
from games.kinds.rattenscharf.rules.board import is_stuck

from .helpers import GAME_A, GAME_R, act, game, play


def test_r34_the_service_completes_a_turn_with_one_timeout_action_per_strip():
    state = play(game(*GAME_A), act(1, 2, 0))
    assert len(state.hand) == 2
    for _ in range(len(state.hand)):
        action = rs.timeout_action(state)
        assert action in rs.legal_actions(state, 1)
        state = rs.apply(state, 1, action)
    assert rs.current_seat(state) == 0 and state.turn == 3


def test_r35_fewest_own_rats_first_then_stuck_rats():
    state = play(game(*GAME_R), act(17, 2, 0), act(20, -1, 1), act(18, 2, 1))
    # Only 33@(1,0)h leaves one red rat; the chosen flip is the canonical first.
    action = rs.timeout_action(state)
    assert action == act(33, 1, 0)
    after = play(state, action)
    assert after.board.rats[0] == 1
    assert is_stuck(after.board, (-1, 1))


def test_r35_points_then_distance_then_canonical_order():
    state = play(game(*GAME_A), act(1, 2, 0), act(3, 2, 1), act(13, 0, 0))
    # 10@(3,2)h and 10@(1,2)h flip both score 1; the nearer middle cell wins.
    assert rs.timeout_action(state) == act(10, 1, 2, flip=True)
    assert rs.timeout_action(game(*GAME_A)) == act(1, -1, -1)  # y decides the tie
