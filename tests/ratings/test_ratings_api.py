"""The ratings in the API: GET /api/ratings/{game}/ (the leaderboard, paginated) and
GET /api/players/{name}/ratings/; and "rated" on a new game (docs/api.md "Ratings")."""

import pytest

from core.api.pagination import PageNumberPagination
from games.models import Game
from ratings.models import PROVISIONAL_GAMES
from tests.factories import client_for, make_user
from tests.ratings.helpers import played

pytestmark = pytest.mark.django_db


def test_the_leaderboard_lists_players_with_five_rated_games_best_first(anna, bert, carla):
    for _ in range(PROVISIONAL_GAMES):
        played([anna, bert], [5, 3])
    played([anna, carla], [5, 3])  # Carla: provisional, not listed
    answer = client_for(carla).get("/api/ratings/piratz/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["count"] == 2
    first, second = body["results"]
    assert (first["place"], first["name"], second["place"], second["name"]) == (
        1,
        "Anna",
        2,
        "Bert",
    )
    assert first["rating"] > second["rating"] and first["games"] == PROVISIONAL_GAMES + 1
    assert first["provisional"] is False and first["game"] == "piratz"
    assert "email" not in str(body) and "@" not in str(body)


def test_places_continue_on_the_next_page(anna, bert, carla, monkeypatch):
    monkeypatch.setattr(PageNumberPagination, "page_size", 1)
    for _ in range(PROVISIONAL_GAMES):
        played([anna, bert], [5, 3])
    body = client_for(carla).get("/api/ratings/piratz/?page=2").json()
    assert [(e["place"], e["name"]) for e in body["results"]] == [(2, "Bert")]


def test_an_unknown_game_has_no_leaderboard(anna):
    answer = client_for(anna).get("/api/ratings/chess/")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert "piratz" in answer.json()["detail"]


def test_the_leaderboard_is_for_signed_in_clients(anna):
    assert client_for(None).get("/api/ratings/piratz/").status_code == 401


def test_a_players_ratings_with_their_history(anna, bert, carla):
    played([anna, bert], [5, 3])
    played([anna, bert, carla], [1, 2, 3])
    answer = client_for(carla).get("/api/players/anna/ratings/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["name"] == "Anna"
    (piratz,) = body["ratings"]
    assert piratz["games"] == 2 and piratz["provisional"] is True
    latest, first = piratz["history"]
    assert (latest["place"], latest["players"], first["place"], first["players"]) == (3, 3, 1, 2)
    assert first["rating_after"] == latest["rating_before"]
    assert latest["rating_after"] == piratz["rating"]
    # The model's numbers beside the shown scale (docs/ratings.md).
    assert piratz["rating"] == round(piratz["ordinal"])
    assert piratz["ordinal"] == pytest.approx(piratz["mu"] - 3 * piratz["sigma"])
    assert piratz["display"] == round(1500 + 20 * piratz["ordinal"])
    assert latest["display_after"] == piratz["display"]
    assert first["display_after"] == latest["display_before"]
    assert "game" not in latest  # which games: not for every reader


def test_a_name_that_is_nobodys_has_no_ratings(anna):
    answer = client_for(anna).get("/api/players/Nobody/ratings/")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"


def test_a_name_finds_exactly_the_person_shown_by_it(anna, carla):
    # Issue 32: a derived name is a name too, and a second "anna" is shown as "anna 2".
    twin = make_user("anna@elsewhere.example")
    played([twin, carla], [5, 3])
    assert client_for(anna).get("/api/players/CARLA/ratings/").json()["name"] == "carla"
    assert client_for(anna).get("/api/players/anna/ratings/").json()["ratings"] == []
    answer = client_for(anna).get("/api/players/anna 2/ratings/").json()
    assert answer["name"] == "anna 2" and answer["ratings"][0]["games"] == 1


def test_a_new_game_says_whether_it_is_rated_and_takes_rated_false(anna):
    client = client_for(anna)
    body = {"game": "piratz", "players": ["anna@example.com", "bert@example.com"]}
    rated = client.post("/api/games/", body, format="json").json()
    unrated = client.post("/api/games/", {**body, "rated": False}, format="json").json()
    assert rated["rated"] is True and unrated["rated"] is False
    assert Game.objects.get(pk=unrated["id"]).rated is False


def test_a_game_with_a_bot_is_unrated_and_cannot_be_asked_rated(anna):
    client = client_for(anna)
    body = {"game": "piratz", "players": ["anna@example.com", "bot:careful"]}
    assert client.post("/api/games/", body, format="json").json()["rated"] is False
    refused = client.post("/api/games/", {**body, "rated": True}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"
    assert "never rated" in refused.json()["detail"]
    wrong = client.post("/api/games/", {**body, "rated": "yes"}, format="json")
    assert wrong.status_code == 400
