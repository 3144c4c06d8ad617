"""Followers' emails: a followed game's end, a followed player's public game; each at most
once per follower and game, in the follower's language, never across a block."""

import pytest
from django.test import TestCase

from accounts.models import NotificationSettings
from games import actions as game_actions
from games import events
from games.models import Game
from notifications.models import OutboundEmail
from people import actions
from people.emails import GAME_ENDED_TEMPLATE, PLAYER_STARTED_TEMPLATE
from tests.factories import TOY_KIND, play_toy_moves, start_toy_game

from .conftest import start_public_toy_game

pytestmark = pytest.mark.django_db


def _emails(template: str) -> list[OutboundEmail]:
    return list(OutboundEmail.objects.filter(template=template).order_by("to"))


def _win_for_anna(game: Game, anna, bert) -> Game:
    with TestCase.captureOnCommitCallbacks(execute=True):
        return play_toy_moves(game, [anna, bert], [1, 4, 2, 5, 3])


def test_a_followed_game_that_ends_tells_its_follower_once(public_game, anna, bert, carla):
    actions.do_follow_game(carla, public_game.id)
    game = _win_for_anna(public_game, anna, bert)
    assert game.status == "finished"
    [email] = _emails(GAME_ENDED_TEMPLATE)
    assert email.to == carla.email
    text = email.rendered().body_text
    assert "Won by Anna" in text and f"/games/{game.id}/" in text
    assert "/enter/" not in text  # the plain page, no signed link: Carla has no seat
    # The signal again (a retried receiver, a second sender) tells nobody twice.
    events.game_ended.send(sender=Game, game=game)
    assert len(_emails(GAME_ENDED_TEMPLATE)) == 1


def test_the_email_is_in_the_followers_language(public_game, anna, bert, carla):
    carla.language = "de"
    carla.save()
    actions.do_follow_game(carla, public_game.id)
    _win_for_anna(public_game, anna, bert)
    [email] = _emails(GAME_ENDED_TEMPLATE)
    assert email.language == "de"
    # Rendered in German when sent (the words are the catalogue's: locale/de).
    assert '<html lang="de">' in email.rendered().body_html


def test_a_follower_who_switched_game_over_emails_off_gets_none(public_game, anna, bert, carla):
    NotificationSettings.objects.create(user=carla, unsubscribed=["game_over"])
    actions.do_follow_game(carla, public_game.id)
    _win_for_anna(public_game, anna, bert)
    assert _emails(GAME_ENDED_TEMPLATE) == []


def test_a_follower_blocked_by_a_player_is_not_told(public_game, anna, bert, carla):
    actions.do_follow_game(carla, public_game.id)
    actions.do_block(bert, carla.public_id)
    _win_for_anna(public_game, anna, bert)
    assert _emails(GAME_ENDED_TEMPLATE) == []


def test_a_followed_player_starting_a_public_game_tells_their_followers(
    toy_games, anna, bert, carla, dirk
):
    actions.do_follow(carla, anna.public_id)
    actions.do_follow(carla, bert.public_id)  # both players: still one email
    actions.do_follow(bert, anna.public_id)  # a player of the game: told by its own emails
    game = start_public_toy_game(anna, bert)
    [email] = _emails(PLAYER_STARTED_TEMPLATE)
    assert email.to == carla.email
    rendered = email.rendered()
    assert "Anna, Bert started a game" in rendered.subject
    assert f"/games/{game.id}/" in rendered.body_text
    events.game_started.send(sender=Game, game=game)
    assert len(_emails(PLAYER_STARTED_TEMPLATE)) == 1


def test_a_private_game_tells_no_follower(toy_games, anna, bert, carla):
    actions.do_follow(carla, anna.public_id)
    start_toy_game([anna, bert])
    assert _emails(PLAYER_STARTED_TEMPLATE) == []


def test_a_block_either_way_keeps_the_start_from_the_follower(toy_games, anna, bert, carla, dirk):
    actions.do_follow(carla, anna.public_id)
    actions.do_follow(dirk, anna.public_id)
    actions.do_block(anna, carla.public_id)
    actions.do_follow(dirk, bert.public_id)
    actions.do_block(dirk, bert.public_id)  # ends Dirk's follow of Bert; Anna's stays
    start_public_toy_game(anna, bert)
    [email] = _emails(PLAYER_STARTED_TEMPLATE)
    assert email.to == dirk.email
    assert "Anna started" in email.rendered().subject


def test_no_email_is_left_when_the_start_rolls_back(toy_games, anna, bert, carla):
    actions.do_follow(carla, anna.public_id)
    game = game_actions.do_create_game(anna, [anna.email, bert.email], game=TOY_KIND)
    Game.objects.filter(pk=game.pk).update(public=True)

    def fail(sender, **kwargs):
        raise RuntimeError("after the followers were told")

    events.game_started.connect(fail, dispatch_uid="test.fail")
    try:
        with pytest.raises(RuntimeError):
            game_actions.do_accept_invitation(game.id, bert)
    finally:
        events.game_started.disconnect(dispatch_uid="test.fail")
    assert _emails(PLAYER_STARTED_TEMPLATE) == []
    start_public = game_actions.do_accept_invitation(game.id, bert)
    assert start_public.status == "active"
    assert len(_emails(PLAYER_STARTED_TEMPLATE)) == 1
