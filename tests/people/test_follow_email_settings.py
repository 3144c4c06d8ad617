"""Followers' emails and the person's own switch for them: each carries the one-click
``List-Unsubscribe`` of the ``followed`` kind, which stops followers' news and nothing
else; Settings has the same switch."""

from urllib.parse import urlsplit

import pytest
from django.test import Client, TestCase

from accounts.models import NotificationSettings
from accounts.unsubscribe import read_unsubscribe_token
from games.models import Game
from notifications.models import OutboundEmail
from people import actions
from people.emails import GAME_ENDED_TEMPLATE, PLAYER_STARTED_TEMPLATE
from tests.factories import play_toy_moves

from .conftest import start_public_toy_game

pytestmark = pytest.mark.django_db


def _emails(template: str, user) -> list[OutboundEmail]:
    return list(OutboundEmail.objects.filter(template=template, to=user.email))


def _win_for_anna(game: Game, anna, bert) -> Game:
    with TestCase.captureOnCommitCallbacks(execute=True):
        return play_toy_moves(game, [anna, bert], [1, 4, 2, 5, 3])


def _sent_to(mailoutbox, user, subject_part: str) -> list:
    """The messages sent to ``user`` whose subject has ``subject_part`` (the outbox rows
    keep no live link once sent: it is redacted)."""
    return [m for m in mailoutbox if m.to == [user.email] and subject_part in m.subject]


def _token(header: str) -> str:
    assert header.startswith("<http") and header.endswith("/>")
    return header[1:-2].rsplit("/", 1)[1]


def test_each_followers_email_carries_a_one_click_unsubscribe_of_followed_news(
    toy_games, public_game, anna, bert, carla, mailoutbox
):
    actions.do_follow(carla, anna.public_id)
    actions.do_follow_game(carla, public_game.id)
    start_public_toy_game(anna, bert)
    _win_for_anna(public_game, anna, bert)
    sent = _sent_to(mailoutbox, carla, "started a game") + _sent_to(mailoutbox, carla, "over")
    assert len(sent) == 2
    for message in sent:
        headers = message.extra_headers
        assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        claim = read_unsubscribe_token(_token(headers["List-Unsubscribe"]))
        assert (claim.user, claim.kind) == (carla, "followed")
        assert f"No more emails like this one: {headers['List-Unsubscribe'][1:-1]}" in message.body


def test_after_the_one_click_followers_news_stops_and_own_game_emails_go_on(
    toy_games, public_game, anna, bert, carla, mailoutbox
):
    actions.do_follow(carla, anna.public_id)
    actions.do_follow_game(carla, public_game.id)
    start_public_toy_game(anna, bert)
    [message] = _sent_to(mailoutbox, carla, "started a game")
    link = message.extra_headers["List-Unsubscribe"][1:-1]
    answer = Client().post(urlsplit(link).path)
    assert answer.status_code == 200
    assert "followed" in NotificationSettings.objects.get(user=carla).unsubscribed
    _win_for_anna(public_game, anna, bert)
    start_public_toy_game(anna, bert)
    assert _emails(GAME_ENDED_TEMPLATE, carla) == []
    assert len(_emails(PLAYER_STARTED_TEMPLATE, carla)) == 1
    # Her own games still tell her (game_started is not switched off).
    start_public_toy_game(carla, bert)
    assert _emails("game_started", carla)


def test_settings_switch_followers_news_off_and_on(toy_games, anna, bert, carla):
    browser = Client()
    browser.force_login(carla)
    page = browser.get("/settings/").content.decode()
    assert 'value="followed"' in page
    assert "News of the games and players you follow" in page
    form = {
        "form": "settings",
        "mode": "each_turn",
        "digest_hour": "8",
        "reminder_leads": "24, 2",
        "time_zone": "UTC",
        "unsubscribed": ["followed"],
    }
    assert browser.post("/settings/", form).status_code in (200, 302)
    assert NotificationSettings.objects.get(user=carla).unsubscribed == ["followed"]
    actions.do_follow(carla, anna.public_id)
    start_public_toy_game(anna, bert)
    assert _emails(PLAYER_STARTED_TEMPLATE, carla) == []
    form["unsubscribed"] = []
    browser.post("/settings/", form)
    assert NotificationSettings.objects.get(user=carla).unsubscribed == []
    start_public_toy_game(anna, bert)
    assert len(_emails(PLAYER_STARTED_TEMPLATE, carla)) == 1


def test_the_switch_in_german(toy_games, carla):
    carla.language = "de"
    carla.save()
    browser = Client()
    browser.force_login(carla)
    page = browser.get("/settings/").content.decode()
    assert '<html lang="de">' in page and 'value="followed"' in page
