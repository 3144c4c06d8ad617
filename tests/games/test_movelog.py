"""games.movelog.public_log: which log entries a viewer sees in full (rules P23's ruling)."""

import pytest

from games import actions
from games.kinds.piratz import rules as piratz
from games.models import Game
from games.movelog import public_log
from tests.factories import play_toy_moves, start_game

pytestmark = pytest.mark.django_db


def play(game, user, kind) -> None:
    """``user`` plays the first legal action of ``kind`` (a pass that buries, if it can)."""
    game = Game.objects.get(id=game.id)
    state = piratz.load(game.state)
    legal = [a for a in piratz.legal_actions(state, game.current_seat) if a["action"] == kind]
    action = max(legal, key=lambda a: a.get("bury") is not None)
    actions.do_play_move(game.id, user, game.version, action)


@pytest.fixture
def four_moves(anna, bert, carla):
    """A 3-player game: Anna reveals and ends her turn, Bert reveals and passes (burying)."""

    def build(blind=True) -> Game:
        game = start_game([anna, bert, carla], seed=1, blind=blind)
        play(game, anna, "reveal")
        play(game, anna, "end_turn")
        play(game, bert, "reveal")
        play(game, bert, "pass")
        return Game.objects.get(id=game.id)

    return build


def full_numbers(log) -> list[int]:
    return [entry["number"] for entry in log if entry["revealed"] or len(entry["action"]) > 1]


def test_a_player_sees_in_full_from_their_own_last_move_on(four_moves):
    game = four_moves()
    full = public_log(game, None)
    assert [e["action"]["action"] for e in full] == ["reveal", "end_turn", "reveal", "pass"]
    assert full[3]["action"]["bury"] is not None  # the pass buried a card: ids to hide

    anna = public_log(game, 0)  # her last move is number 2
    assert anna[1:] == full[1:]
    assert anna[0] == {**full[0], "revealed": None}

    bert = public_log(game, 1)  # his last move is number 4: only that one in full
    assert bert[3] == full[3]
    assert [e["action"] for e in bert[:3]] == [
        {"action": "reveal"},
        {"action": "end_turn"},
        {"action": "reveal"},
    ]
    assert all(e["revealed"] is None for e in bert[:3])
    for entry, whole in zip(bert[:3], full[:3], strict=True):
        assert set(entry) == set(whole)
        assert [entry[k] for k in ("number", "seat", "automatic", "at")] == [
            whole[k] for k in ("number", "seat", "automatic", "at")
        ]


def test_a_player_who_has_not_moved_yet_watched_it_all(four_moves):
    game = four_moves()
    assert public_log(game, 2) == public_log(game, None)


def test_an_automatic_move_counts_as_the_players_own(four_moves, moderator):
    game = four_moves()
    # Carla's turn, played for her:
    actions.do_play_timeout(game.id, moderator=moderator, reason="test")
    game.refresh_from_db()
    carla = public_log(game, 2)
    assert carla[4]["automatic"] and carla[4] == public_log(game, None)[4]
    assert all(e["revealed"] is None and len(e["action"]) == 1 for e in carla[:4])
    assert carla[3]["action"] == {"action": "pass"}  # no treasure, no bury


def test_open_games_spectators_and_ended_games_show_everything(four_moves, moderator):
    open_game = four_moves(blind=False)
    assert public_log(open_game, 1) == public_log(open_game, None)
    assert full_numbers(public_log(open_game, 1)) == [1, 3, 4]

    blind = four_moves()
    assert full_numbers(public_log(blind, 1)) == [4]
    actions.do_abort_game(blind.id, moderator, reason="test")
    blind.refresh_from_db()
    assert public_log(blind, 1) == public_log(blind, None)  # ended: all open now


def test_the_caller_may_pass_the_moves_it_has(four_moves, django_assert_num_queries):
    game = four_moves()
    moves = list(game.moves.order_by("number"))
    expected = public_log(game, 0)
    with django_assert_num_queries(0):
        assert public_log(game, 0, moves) == expected


def test_a_log_tells_the_game_as_of_its_loaded_version(toy_game, anna, bert):
    """A page or answer that loaded the game at version 1 tells one entry even when a later
    move commits while it is built: the log never runs ahead of the table beside it (a blind
    table at version N must not name a card of move N+1)."""
    game = play_toy_moves(toy_game, [anna, bert], [5])
    loaded = Game.objects.get(id=game.id)
    play_toy_moves(game, [anna, bert], [1])  # a later move commits meanwhile
    assert [entry["number"] for entry in public_log(loaded, 0)] == [1]
    assert [entry["number"] for entry in public_log(Game.objects.get(id=game.id), 0)] == [1, 2]
