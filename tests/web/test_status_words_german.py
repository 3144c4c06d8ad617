"""A game's status and why it ended (the model's choice labels) read German on German pages."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import actions
from games.invitation_links import invitation_token
from tests.factories import sign_in_verified, start_game

pytestmark = pytest.mark.django_db


def test_a_declined_games_invitation_page_says_status_and_reason_in_german(anna, bert):
    game = actions.do_create_game(anna, [anna.email, bert.email])
    actions.do_decline_invitation(game.id, bert)
    token = invitation_token(game, game.seats.get(seat=1))
    page = Client().get(reverse("games:invitation", args=[token]), HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 200
    assert "Dieses Spiel ist abgesagt (eine eingeladene Person hat abgelehnt)." in (
        page.content.decode()
    )


def test_an_aborted_games_table_says_status_and_reason_in_german(client, anna, bert, moderator):
    User.objects.filter(pk=anna.pk).update(language="de")
    game = start_game([anna, bert])
    actions.do_abort_game(game.id, moderator, reason="test")
    sign_in_verified(client, anna)
    page = client.get(reverse("games:game", args=[game.id])).content.decode()
    assert "Dieses Spiel wurde abgebrochen: von einem Moderator abgebrochen." in page


def test_the_home_page_lists_a_waiting_game_in_german(client, anna, bert):
    User.objects.filter(pk=anna.pk).update(language="de")
    actions.do_create_game(anna, [anna.email, bert.email])
    sign_in_verified(client, anna)
    assert "wartet auf Zusagen" in client.get("/").content.decode()
