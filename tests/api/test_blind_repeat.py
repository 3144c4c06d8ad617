"""A repeated move is no oracle for a blind game's hidden moves (rules P23).

``do_play_move`` answers a request repeated from an older version with the current game
when it is the move the sender played from there (a client's retry after a lost answer).
In a blind game the sender's older moves are reduced in their log (no treasure, bury or
keep) once they have moved again; if the repeat were still recognised there, the one
guess answered 200 among many answered 409 would give the hidden move away. So a repeat
is recognised only while the sender still sees the entry (their last move); otherwise
every guess gets the same answer.
"""

import pytest

from games import actions
from games.models import Game
from tests.factories import client_for
from tests.games.blind_repeats import play_own_move, play_until_seat_moves_again

pytestmark = pytest.mark.django_db

KINDS = ["pass", "resolve_alarm"]


def send(client, game, version: int, action: dict):
    return client.post(
        f"/api/games/{game.id}/moves/", {"version": version, **action}, format="json"
    )


def answers(client, game, version: int, guesses: list[dict]) -> set[tuple[int, str]]:
    """The distinct (status, body) answers to sending each guess from ``version``."""
    return {
        (response.status_code, response.content.decode())
        for response in (send(client, game, version, guess) for guess in guesses)
    }


@pytest.mark.parametrize("kind", KINDS)
def test_every_guess_at_a_hidden_own_move_gets_the_same_answer(anna, bert, kind):
    own = play_own_move([anna, bert], kind, blind=True)
    game = play_until_seat_moves_again(own, [anna, bert])
    assert len(own.choices) > 1  # there is something to guess
    client = client_for([anna, bert][own.seat])

    [(status, body)] = answers(client, game, own.version, own.choices)

    assert status == 409 and '"stale_version"' in body
    assert Game.objects.get(id=game.id).version == game.version  # nothing was played


@pytest.mark.parametrize("kind", KINDS)
def test_the_action_refuses_a_hidden_own_move_like_any_guess(anna, bert, kind):
    own = play_own_move([anna, bert], kind, blind=True)
    game = play_until_seat_moves_again(own, [anna, bert])
    player = [anna, bert][own.seat]
    refusals = set()
    for guess in own.choices:
        with pytest.raises(actions.ServiceError) as refused:
            actions.do_play_move(game.id, player, own.version, guess)
        refusals.add((refused.value.code, refused.value.detail))
    assert len(refusals) == 1
    assert Game.objects.get(id=game.id).version == game.version


@pytest.mark.parametrize("kind", KINDS)
def test_a_blind_player_s_last_move_is_still_recognised_when_repeated(anna, bert, kind):
    # The sender still sees their last move in full (P23), so a retry after a lost
    # answer is answered with the game, as in an open game.
    own = play_own_move([anna, bert], kind, blind=True)
    client = client_for([anna, bert][own.seat])

    again = send(client, own.game, own.version, own.played)
    wrong = send(client, own.game, own.version, own.wrong_guesses()[0])

    assert again.status_code == 200 and again.json()["version"] == own.version + 1
    assert wrong.status_code == 409
    assert Game.objects.get(id=own.game.id).version == own.version + 1


@pytest.mark.parametrize("kind", KINDS)
def test_in_an_open_game_an_older_move_repeated_is_still_already_played(anna, bert, kind):
    own = play_own_move([anna, bert], kind, blind=False)
    game = play_until_seat_moves_again(own, [anna, bert])
    client = client_for([anna, bert][own.seat])

    again = send(client, game, own.version, own.played)
    wrong = send(client, game, own.version, own.wrong_guesses()[0])

    assert again.status_code == 200 and again.json()["version"] == game.version
    assert wrong.status_code == 409 and wrong.json()["code"] == "stale_version"
    assert Game.objects.get(id=game.id).version == game.version
