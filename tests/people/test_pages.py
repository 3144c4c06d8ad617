"""The pages: the player page's buttons, "My people", the game page's "Follow this game",
and the create form that a challenge opens with the player in it (never their address)."""

import pytest
from django.urls import reverse

from games.models import Game
from people import actions
from people.models import Block, Follow, FollowedGame
from tests.factories import TOY_KIND

pytestmark = pytest.mark.django_db


def _page(client, user, url) -> str:
    client.force_login(user)
    answer = client.get(url)
    assert answer.status_code == 200
    return answer.content.decode()


def test_a_player_page_offers_follow_challenge_and_block(client, anna, bert):
    page = _page(client, anna, reverse("games:player", args=[bert.public_id]))
    assert "data-follow" in page and "data-block" in page
    assert f"?challenge={bert.public_id}#create" in page


def test_no_buttons_on_ones_own_page(client, anna):
    page = _page(client, anna, reverse("games:player", args=[anna.public_id]))
    assert "data-follow" not in page and "data-challenge" not in page and "data-block" not in page


def test_no_challenge_button_for_someone_who_blocked_you(client, anna, bert):
    actions.do_block(bert, anna.public_id)
    page = _page(client, anna, reverse("games:player", args=[bert.public_id]))
    assert "data-challenge" not in page
    # Otherwise the page reads as for anyone: follow and block are there.
    assert "data-follow" in page and "data-block" in page and "data-unblock" not in page


def test_the_buttons_follow_and_block(client, anna, bert):
    client.force_login(anna)
    back = client.post(reverse("people:follow", args=[bert.public_id]))
    assert back.status_code == 302 and back.url == reverse("games:player", args=[bert.public_id])
    assert Follow.objects.filter(follower=anna, player=bert).exists()
    client.post(reverse("people:block", args=[bert.public_id]))
    assert Block.objects.filter(blocker=anna, blocked=bert).exists()
    page = client.get(reverse("games:player", args=[bert.public_id])).content.decode()
    assert "data-unblock" in page and "data-challenge" not in page
    back = client.post(reverse("people:unblock", args=[bert.public_id]), {"back": "mine"})
    assert back.url == reverse("people:mine")
    assert not Block.objects.exists()


def test_a_button_refused_says_why_and_changes_nothing(client, anna):
    client.force_login(anna)
    answer = client.post(reverse("people:follow", args=[anna.public_id]), follow=True)
    assert "You cannot follow yourself." in answer.content.decode()
    assert not Follow.objects.exists()


def test_the_buttons_take_posts_of_signed_in_people_only(client, anna, bert):
    assert client.get(reverse("people:follow", args=[bert.public_id])).status_code in (302, 405)
    assert client.post(reverse("people:follow", args=[bert.public_id])).status_code == 302
    assert not Follow.objects.exists()  # sent to sign in, nothing followed


def test_my_people_lists_follows_blocks_and_games(client, public_game, anna, bert, carla, dirk):
    actions.do_follow(carla, anna.public_id)
    actions.do_follow(carla, bert.public_id)
    actions.do_block(bert, carla.public_id)
    actions.do_block(carla, dirk.public_id)
    actions.do_follow_game(carla, public_game.id)
    page = _page(client, carla, reverse("people:mine"))
    assert f'data-following="{anna.public_id}"' in page
    assert f'data-following="{bert.public_id}"' in page
    assert f'data-blocked="{dirk.public_id}"' in page
    assert f'data-followed-game="{public_game.id}"' in page
    # Challenge Anna, not Bert (he blocked Carla; she is not told, the button just is not there).
    assert f"?challenge={anna.public_id}#create" in page
    assert f"?challenge={bert.public_id}#create" not in page
    assert "@example.com" not in page


def test_the_settings_page_links_to_my_people(client, anna):
    assert reverse("people:mine") in _page(client, anna, reverse("settings-page"))


def test_a_public_game_page_offers_follow_to_a_watcher_only(client, public_game, anna, carla):
    url = reverse("games:game", args=[public_game.id])
    player_page = _page(client, anna, url)
    assert "data-follow-game" not in player_page
    client.force_login(carla)
    watched = client.get(url)
    if watched.status_code == 404:
        pytest.skip("public games are not watchable in this checkout yet (the spectators' part)")
    assert "data-follow-game" in watched.content.decode()
    client.post(reverse("people:follow-game", args=[public_game.id]))
    assert FollowedGame.objects.filter(user=carla, game=public_game).exists()
    assert "data-unfollow-game" in client.get(url).content.decode()


def test_a_challenge_opens_the_create_form_with_the_player_in_it(client, toy_games, anna, bert):
    page = _page(client, anna, reverse("games:my-games") + f"?challenge={bert.public_id}")
    assert f'data-challenged="{bert.public_id}"' in page and "You challenge Bert" in page
    assert f'name="challenge" value="{bert.public_id}"' in page
    assert "bert@example.com" not in page  # the address stays private
    answer = client.post(
        reverse("games:my-games"),
        {
            "form": "create",
            "game": TOY_KIND,
            "player_1": anna.email,
            "turn_hours": 72,
            "challenge": bert.public_id,
        },
    )
    game = Game.objects.get()
    assert answer.status_code == 302 and answer.url == reverse("games:game", args=[game.id])
    assert [seat.user for seat in game.seats.order_by("seat")] == [anna, bert]


def test_a_challenge_refused_by_a_block_reads_as_any_refusal(client, toy_games, anna, bert):
    actions.do_block(bert, anna.public_id)
    client.force_login(anna)
    answer = client.post(
        reverse("games:my-games"),
        {
            "form": "create",
            "game": TOY_KIND,
            "player_1": anna.email,
            "turn_hours": 72,
            "challenge": bert.public_id,
        },
    )
    assert answer.status_code == 400
    assert "cannot be invited right now" in answer.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize("who", ["nobody", "self"])
def test_a_challenge_of_nobody_or_oneself_shows_no_chip(client, anna, who):
    public_id = "nobody0000" if who == "nobody" else anna.public_id
    page = _page(client, anna, reverse("games:my-games") + f"?challenge={public_id}")
    assert "data-challenged" not in page
