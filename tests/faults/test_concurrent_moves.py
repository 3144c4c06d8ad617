"""50 concurrent identical move requests, and 50 concurrent different ones, on one game.

Real HTTP to gunicorn (two workers, eight threads each) on PostgreSQL: all requests are
released together. Exactly one move is applied each time and no answer is a server error.
Identical requests after the applied one are answered 200 with the game (a repeated move
is a replay, docs/api.md "Games, moves and versions"); different ones get 409 (``stale_version``, or
``not_your_turn`` for the other seat).
"""

from collections import Counter

from games import actions
from games.models import Game
from tests.concurrency import at_once
from tests.faults.stack import Api

REQUESTS = 50


def legal(game: Game, seat: int) -> list[dict]:
    # The engine through the catalogue: the served game is a real one (gunicorn runs the
    # project's GAME_PACKAGES, without the toy), its reveals giving a turn several choices.
    return game.rules.legal_actions(game.load_state(), seat)


def a_game_with_choices(game_id, users, wanted: int = 3) -> Game:
    """Reveal (in-process) until the player to move has at least ``wanted`` legal actions."""
    game = Game.objects.get(id=game_id)
    while len(legal(game, game.current_seat)) < wanted:
        reveal = {"action": "reveal"}
        assert reveal in legal(game, game.current_seat), "the seeded game ran out of reveals"
        actions.do_play_move(game.id, users[game.current_seat], game.version, reveal)
        game = Game.objects.get(id=game_id)
    return game


def burst(requests) -> tuple[list, Counter]:
    answers = at_once([lambda api=api, body=body: api.move(*body) for api, body in requests])
    return answers, Counter((answer.status, answer.code) for answer in answers)


def test_fifty_identical_then_fifty_different_moves_apply_exactly_one_each(
    stack, table_of, two_player_games, anna, bert
):
    the_stack = stack(worker=False, beat=False)
    apis: list[Api] = table_of(the_stack).apis
    game = a_game_with_choices(two_player_games(1)[0], [anna, bert])
    mover, version, moves_before = game.current_seat, game.version, game.moves.count()

    # 50 identical: one move, sent 50 times at once.
    choice = legal(game, mover)[0]
    identical, identical_counts = burst([(apis[mover], (game.id, version, choice))] * REQUESTS)
    game.refresh_from_db()
    applied_identical = game.moves.count() - moves_before

    # 50 different: every legal action of the player to move and, for the other seat, its
    # actions as if it were its turn, all from the current version, cycled to 50.
    mover, version, moves_before = game.current_seat, game.version, game.moves.count()
    options = [(apis[mover], (game.id, version, action)) for action in legal(game, mover)]
    options += [(apis[1 - mover], (game.id, version, {"action": "reveal"}))]
    different = [options[i % len(options)] for i in range(REQUESTS)]
    different_answers, different_counts = burst(different)
    game.refresh_from_db()
    applied_different = game.moves.count() - moves_before
    applied_action = game.moves.order_by("-number").first().action

    print(
        f"\nconcurrent moves: identical x{REQUESTS}: {dict(identical_counts)}, applied"
        f" {applied_identical}; different x{REQUESTS} ({len(options)} kinds):"
        f" {dict(different_counts)}, applied {applied_different}"
    )

    assert applied_identical == 1
    assert all(answer.status == 200 for answer in identical)  # the rest are replays
    assert applied_different == 1 and game.version == version + 1
    assert not any(answer.status >= 500 for answer in identical + different_answers)
    for (_api, (_id, _version, action)), answer in zip(different, different_answers, strict=True):
        if answer.status == 200:  # the applied move, or a replay of it by the same seat
            assert action == applied_action
        else:
            assert (answer.status, answer.code) in {
                (409, "stale_version"),
                (409, "not_your_turn"),
                (400, "illegal_action"),
            }, answer.body
