"""A suspended player takes no action on a game, whichever door they come by.

The check is in the actions (``games.actions.common.refuse_if_suspended``), on the user
read with the locked game row: a browser session, an API request or an email handled
with the player as they were read before the suspension is refused all the same, and
nothing changes (no move, no new version).
"""

import json

import pytest
from django.test import Client
from django.urls import reverse

from core.errors import ServiceError
from games import actions
from games.models import Game, GameStatus, Move
from moderation import actions as moderation
from tests.factories import TOY_KIND, client_for

pytestmark = pytest.mark.django_db

MOVE = {"action": "mark", "cell": 1}  # the toy game's first seat's first move
NOTICE = "A moderator has suspended your account, so you cannot play for now."


@pytest.fixture
def suspend(moderator):
    """Suspend a player as a moderator does."""

    def suspend(user):
        moderation.do_suspend_user(moderator, user, "Insulted other players.")

    return suspend


def assert_nothing_played(game: Game) -> None:
    assert not Move.objects.filter(game=game).exists()
    assert Game.objects.get(id=game.id).version == game.version == 0


def test_a_browser_session_opened_before_the_suspension_cannot_move(toy_game, anna, suspend):
    browser = Client()
    browser.force_login(anna)
    assert browser.get(reverse("games:game", args=[toy_game.id])).status_code == 200
    suspend(anna)

    response = browser.post(
        reverse("games:move", args=[toy_game.id]),
        {"version": "0", "move": json.dumps(MOVE)},
        follow=True,
    )

    # Told like any refused move: a message above the current table.
    assert response.redirect_chain == [(reverse("games:game", args=[toy_game.id]), 302)]
    assert NOTICE in response.content.decode()
    assert "Your move was played" not in response.content.decode()
    assert_nothing_played(toy_game)


def test_the_action_refuses_a_player_read_before_the_suspension(toy_game, anna, suspend):
    suspend(anna)  # ``anna`` here is the object read before, as a request's user may be
    assert anna.suspended_at is None

    with pytest.raises(ServiceError) as refused:
        actions.do_play_move(toy_game.id, anna, 0, MOVE)

    assert refused.value.code == "suspended" and refused.value.detail == NOTICE
    assert_nothing_played(toy_game)


def test_a_suspended_player_s_retry_is_refused_too(toy_game, anna, suspend):
    # The repeat of a move already played is answered with the game (a lost answer's
    # retry); a suspended player gets the refusal instead, and nothing is played.
    actions.do_play_move(toy_game.id, anna, 0, MOVE)
    suspend(anna)
    with pytest.raises(ServiceError) as refused:
        actions.do_play_move(toy_game.id, anna, 0, MOVE)
    assert refused.value.code == "suspended"
    assert Move.objects.filter(game=toy_game).count() == 1


@pytest.mark.parametrize("door", ["api key", "browser session"])
def test_the_api_refuses_a_suspended_player_s_move_with_403(toy_game, anna, suspend, door):
    api = client_for(anna if door == "api key" else None)
    if door == "browser session":
        api.force_login(anna)
    suspend(anna)

    response = api.post(f"/api/games/{toy_game.id}/moves/", {"version": 0, **MOVE}, format="json")

    assert response.status_code == 403 and response.json()["code"] == "suspended"
    assert_nothing_played(toy_game)


def test_a_suspended_player_cannot_set_a_standing_order(game, anna, suspend):
    # Piratz's game: a standing order (P24) is its own.
    suspend(anna)
    with pytest.raises(ServiceError) as refused:
        actions.do_set_standing_order(game.id, anna, ["coins"])
    assert refused.value.code == "suspended"
    assert game.seats.get(seat=0).standing_order == []


def test_a_suspended_player_cannot_decline_an_invitation(toy_games, anna, bert, suspend):
    game = actions.do_create_game(anna, [anna.email, bert.email], game=TOY_KIND)
    suspend(bert)
    with pytest.raises(ServiceError) as refused:
        actions.do_decline_invitation(game.id, bert)
    assert refused.value.code == "suspended"
    game.refresh_from_db()
    assert game.status == GameStatus.INVITED and game.seats.get(seat=1).declined_at is None


def test_the_invitation_link_refuses_a_suspended_player_s_decline(
    client, toy_games, anna, bert, suspend
):
    # The link signs nobody in: its token is the proof, so the action is the only check.
    game = actions.do_create_game(anna, [anna.email, bert.email], game=TOY_KIND)
    token = actions.invitation_token(game, game.seats.get(seat=1))
    suspend(bert)

    response = client.post(reverse("games:invitation", args=[token]), {"decision": "decline"})

    assert response.status_code == 400
    assert "you cannot answer invitations for now" in response.content.decode()
    assert Game.objects.get(id=game.id).status == GameStatus.INVITED


def test_a_suspended_player_cannot_take_their_seat_back_from_a_bot(
    toy_game, anna, moderator, suspend
):
    actions.do_replace_with_bot(toy_game.id, moderator, 0, reason="Gone for weeks")
    suspend(anna)
    with pytest.raises(ServiceError) as refused:
        actions.do_take_back_seat(toy_game.id, anna)
    assert refused.value.code == "suspended"
    assert toy_game.seats.get(seat=0).bot
