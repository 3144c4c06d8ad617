"""'Next game': one click (``/next/``) and one call (``GET /api/games/next/``) to the game where
it is your turn with the nearest deadline; and the table's button after you move."""

import pytest
from django.test import Client
from django.urls import reverse

from games import actions
from games.models import Game
from tests.factories import client_for, start_toy_game, toy_move

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_nearest_deadline_first_paused_games_last(toy_games, anna, bert, carla):
    slow = start_toy_game([anna, bert], turn_hours=72)
    soon = start_toy_game([anna, carla], turn_hours=24)
    paused = start_toy_game([anna, bert], turn_hours=1)
    actions.do_pause_game(paused.id, anna)  # no deadline while paused: after every clocked one
    start_toy_game([bert, anna], turn_hours=1)  # Bert's turn: not waiting for Anna
    assert signed_in(anna).get("/next/")["Location"] == f"/games/{soon.id}/"
    answer = client_for(anna).get("/api/games/next/")
    assert answer.status_code == 200
    assert answer.json()["id"] == str(soon.id) and answer.json()["url"] == f"/games/{soon.id}/"

    for game in (soon, slow):  # Anna moves in both: only the paused one still waits for her
        actions.do_play_move(game.id, anna, 0, toy_move(Game.objects.get(id=game.id)))
    assert client_for(anna).get("/api/games/next/").json()["id"] == str(paused.id)


def test_none_waiting_answers_404_and_the_page_says_so(toy_games, anna, bert):
    start_toy_game([bert, anna])  # Bert to move
    answer = client_for(anna).get("/api/games/next/")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert answer.json()["detail"]
    page = signed_in(anna).get("/next/", follow=True)
    assert page.redirect_chain[-1][0] == reverse("games:my-games")
    assert "No game waits for your move just now." in page.content.decode()


def test_signed_out_next_game_asks_to_sign_in(db):
    assert Client().get("/next/")["Location"].startswith("/accounts/")
    assert client_for(None).get("/api/games/next/").status_code == 401


def test_the_table_offers_the_next_game_once_you_have_moved(toy_games, anna, bert, carla):
    here = start_toy_game([anna, bert])
    other = start_toy_game([anna, carla])
    table = reverse("games:game", args=[here.id])
    assert "data-next-game>" not in signed_in(anna).get(table).content.decode()  # her turn here
    actions.do_play_move(here.id, anna, 0, toy_move(here))
    page = signed_in(anna).get(table).content.decode()
    assert "data-next-game>" in page and f"/games/{other.id}/" in page
    assert "data-next-game>" not in signed_in(bert).get(table).content.decode()  # his turn
