"""The lobby's API (/api/lobby/) and pages (/lobby/): listing with filters, creating,
joining with one call or one click, withdrawing; refusals in the API's error shape."""

import pytest
from django.utils import timezone

from games.models import Game, GameStatus
from lobby import actions
from lobby.models import OpenGame
from people.models import Block
from tests.factories import client_for, make_user

pytestmark = pytest.mark.django_db


def _open(host, **options) -> OpenGame:
    return actions.do_create_open_game(host, **{"game": "piratz", "seats": 2, **options})


def _ids(answer) -> list[str]:
    assert answer.status_code == 200, answer.json()
    return [row["id"] for row in answer.json()["results"]]


class TestListing:
    def test_the_lobby_lists_open_games_with_what_a_player_chooses_by(self, anna, bert):
        open_game = _open(anna, seats=3, bots=["careful"], language="de")
        [row] = client_for(bert).get("/api/lobby/").json()["results"]
        assert row == {
            **row,
            "id": str(open_game.pk),
            "game": "piratz",
            "status": "open",
            "seats": 3,
            "taken": 2,
            "host": "Anna",
            "host_rating": 1500,
            "rated": False,
            "public": True,
            "language": "de",
            "rating_min": None,
            "seated": False,
            "can_join": False,  # Bert reads English
        }
        assert row["players"][0] == "Anna" and row["clock"]["kind"] == "per_turn"
        german = client_for(bert).get("/api/lobby/", HTTP_ACCEPT_LANGUAGE="de").json()
        assert german["results"][0]["can_join"] is True

    def test_filters(self, anna, bert, carla):
        two = _open(anna)
        three = _open(bert, seats=3, rated=False)
        german = _open(carla, language="de")
        viewer = client_for(make_user("dora@example.com"))
        assert set(_ids(viewer.get("/api/lobby/"))) == {str(two.pk), str(three.pk), str(german.pk)}
        assert _ids(viewer.get("/api/lobby/?players=3")) == [str(three.pk)]
        assert set(_ids(viewer.get("/api/lobby/?rated=true"))) == {str(two.pk), str(german.pk)}
        assert set(_ids(viewer.get("/api/lobby/?language=en"))) == {str(two.pk), str(three.pk)}
        assert set(_ids(viewer.get("/api/lobby/?can_join=true"))) == {str(two.pk), str(three.pk)}
        assert _ids(viewer.get("/api/lobby/?can_join=false")) == [str(german.pk)]
        assert _ids(viewer.get("/api/lobby/?game=rattenscharf")) == []
        # The host sees their own game, but cannot join it.
        host_cannot = set(_ids(client_for(anna).get("/api/lobby/?can_join=false")))
        assert host_cannot == {str(two.pk), str(german.pk)}

    @pytest.mark.parametrize("query", ["?colour=red", "?players=9", "?rated=yes", "?game=chess"])
    def test_a_bad_filter_is_refused(self, anna, query):
        answer = client_for(anna).get(f"/api/lobby/{query}")
        assert answer.status_code == 400 and answer.json()["code"] == "invalid"

    def test_blocked_and_suspended_people_stay_out_of_sight(self, anna, bert, carla):
        mine = _open(anna)
        carlas = _open(carla)
        Block.objects.create(blocker=anna, blocked=bert)
        assert _ids(client_for(bert).get("/api/lobby/")) == [str(carlas.pk)]
        answer = client_for(bert).get(f"/api/lobby/{mine.pk}/")
        assert answer.status_code == 404 and answer.json()["code"] == "not_found"
        carla.suspended_at = timezone.now()
        carla.save()
        assert _ids(client_for(bert).get("/api/lobby/")) == []


class TestApi:
    def test_create_join_and_start(self, anna, bert):
        created = client_for(anna).post(
            "/api/lobby/",
            {"game": "piratz", "seats": 2, "clock": {"kind": "bank"}, "public": False},
            format="json",
        )
        assert created.status_code == 201, created.json()
        body = created.json()
        assert body["seated"] and body["taken"] == 1 and body["clock"]["kind"] == "bank"
        joined = client_for(bert).post(f"/api/lobby/{body['id']}/join/", format="json")
        assert joined.status_code == 200, joined.json()
        assert joined.json()["status"] == "started" and joined.json()["seated"]
        game = Game.objects.get(pk=body["id"])
        assert game.status == GameStatus.ACTIVE and not game.public
        assert client_for(bert).get(f"/api/games/{game.pk}/").json()["you"] == 1

    @pytest.mark.parametrize(
        ("body", "code"),
        [
            ({"game": "piratz"}, "invalid"),
            ({"game": "piratz", "seats": "2"}, "invalid"),
            ({"game": "piratz", "seats": 2, "colour": "red"}, "invalid"),
            ({"game": "piratz", "seats": 2, "bots": ["careful"]}, "invalid"),
            ({"game": "piratz", "seats": 2, "rating_min": 9, "rating_max": 1}, "invalid"),
            ({"game": "rattenscharf", "seats": 3}, "invalid"),
        ],
    )
    def test_bad_bodies_are_400(self, anna, body, code):
        answer = client_for(anna).post("/api/lobby/", body, format="json")
        assert answer.status_code == 400 and answer.json()["code"] == code
        assert not Game.objects.exists()

    def test_refusals_in_the_error_shape(self, anna, bert, carla):
        open_game = _open(anna, seats=3)
        own = client_for(anna).post(f"/api/lobby/{open_game.pk}/join/", format="json")
        assert (own.status_code, own.json()["code"]) == (409, "conflict")
        client_for(bert).post(f"/api/lobby/{open_game.pk}/join/", format="json")
        not_host = client_for(bert).post(f"/api/lobby/{open_game.pk}/withdraw/")
        assert (not_host.status_code, not_host.json()["code"]) == (403, "not_host")
        withdrawn = client_for(anna).post(f"/api/lobby/{open_game.pk}/withdraw/")
        assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
        late = client_for(carla).post(f"/api/lobby/{open_game.pk}/join/", format="json")
        assert (late.status_code, late.json()["code"]) == (404, "not_found")
        unknown = client_for(carla).post("/api/lobby/not-a-game/join/", format="json")
        assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"
        assert client_for(None).get("/api/lobby/").status_code == 401


class TestPages:
    def test_create_join_by_click_and_the_table_opens(self, client, anna, bert):
        client.force_login(anna)
        page = client.get("/lobby/new/")
        assert page.status_code == 200
        answer = client.post(
            "/lobby/new/",
            {
                "game": "piratz",
                "seats": "2",
                "bots": "0",
                "bot_level": "careful",
                "turn_hours": "48",
                "clock": "per_turn",
                "public": "on",
                "language": "",
                "rating_rule": "any",
            },
        )
        assert answer.status_code == 302 and answer.url == "/lobby/"
        open_game = OpenGame.objects.get()
        assert open_game.game.turn_hours == 48
        client.force_login(bert)
        lobby = client.get("/lobby/")
        assert b"Join Anna's game of Piratz" in lobby.content
        joined = client.post(f"/lobby/{open_game.pk}/join/")
        assert joined.status_code == 302 and joined.url == f"/games/{open_game.pk}/"
        assert Game.objects.get(pk=open_game.pk).status == GameStatus.ACTIVE

    def test_the_lobby_in_german(self, client, anna, bert):
        _open(anna)
        bert.language = "de"
        bert.save()
        client.force_login(bert)
        page = client.get("/lobby/").content.decode()
        assert '<html lang="de">' in page

    def test_a_refused_form_says_why(self, client, anna):
        client.force_login(anna)
        answer = client.post(
            "/lobby/new/",
            {
                "game": "piratz",
                "seats": "2",
                "bots": "1",
                "bot_level": "careful",
                "turn_hours": "72",
                "clock": "per_turn",
                "rating_rule": "any",
            },
        )
        assert answer.status_code == 400
        assert b"Leave at least one seat open" in answer.content
        assert not Game.objects.exists()

    def test_signed_out_visitors_are_sent_to_sign_in(self, client):
        assert client.get("/lobby/").status_code == 302
