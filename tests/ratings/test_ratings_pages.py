"""The leaderboard page (/leaderboard/<game>/), the ratings on the player page, and the
create form's "Unrated" box; in English and German."""

import pytest
from django.test import Client

from games.models import Game
from ratings.models import PROVISIONAL_GAMES
from tests.ratings.helpers import played

pytestmark = pytest.mark.django_db


def signed_in(user, language: str = "en") -> Client:
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    return client


def test_the_leaderboard_page_lists_established_players(anna, bert, carla):
    for _ in range(PROVISIONAL_GAMES):
        played([anna, bert], [5, 3])
    played([carla, anna], [5, 3])  # Carla is provisional: not listed
    body = signed_in(carla).get("/leaderboard/piratz/").content.decode()
    assert "Leaderboard of Piratz" in body
    assert body.index(">Anna</a>") < body.index(">Bert</a>")
    assert 'data-place="1"' in body and 'data-place="2"' in body and ">Carla<" not in body
    assert f'href="/people/{anna.public_id}/"' in body
    assert "@example.com" not in body


def test_the_leaderboard_page_in_german(anna, bert):
    body = signed_in(anna, "de").get("/leaderboard/rattenscharf/").content.decode()
    assert "Rangliste von Rattenscharf" in body
    assert "Noch niemand hat 5 gewertete Partien gespielt." in body


def test_the_leaderboard_page_wants_a_game_and_a_signed_in_reader(anna):
    assert signed_in(anna).get("/leaderboard/chess/").status_code == 404
    assert Client().get("/leaderboard/piratz/").status_code == 302
    assert signed_in(anna).get("/leaderboard/").url == "/leaderboard/piratz/"


def test_the_player_page_shows_the_rating_and_its_history(anna, bert):
    played([anna, bert], [5, 3])
    played([anna, bert], [2, 3])
    body = signed_in(bert).get(f"/people/{anna.public_id}/").content.decode()
    assert 'id="ratings"' in body and 'data-kind="piratz"' in body
    rating = anna.ratings.get(kind="piratz")
    assert f"Rating {rating.display}?, provisional after 2 rated games" in body
    assert rating.display > 1000 and "A new player starts at 1500" in body
    assert body.count("<td>1 of 2</td>") == 1 and body.count("<td>2 of 2</td>") == 1
    german = signed_in(bert, "de").get(f"/people/{anna.public_id}/").content.decode()
    assert "vorläufig nach 2 gewerteten Partien" in german and "<td>1. von 2</td>" in german


def test_a_player_without_rated_games(anna, bert):
    body = signed_in(bert).get(f"/people/{anna.public_id}/").content.decode()
    assert "No rated games yet." in body


def test_the_create_form_may_make_a_game_unrated(anna):
    form = {
        "form": "create",
        "game": "piratz",
        "player_1": anna.email,
        "player_2": "bert@example.com",
        "turn_hours": 72,
        "stand_in_bots": "unknown",
    }
    client = signed_in(anna)
    assert "Unrated: the result moves nobody" in client.get("/games/").content.decode()
    client.post("/games/", {**form, "unrated": "on"})
    client.post("/games/", form)
    assert sorted(Game.objects.values_list("rated", flat=True)) == [False, True]


def test_every_pages_header_links_to_the_leaderboards_in_english_and_german(anna):
    english = signed_in(anna).get("/settings/").content.decode()
    assert '<a href="/leaderboard/">Leaderboards</a>' in english
    german = signed_in(anna, "de").get("/games/").content.decode()
    assert '<a href="/leaderboard/">Ranglisten</a>' in german
