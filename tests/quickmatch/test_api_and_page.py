"""The quick match API (/api/quickmatch/) and page (/quickmatch/), English and German."""

import uuid

import pytest

from games.models import Game
from moderation.actions import do_suspend_user
from quickmatch import actions
from quickmatch.models import Seek, SeekStatus
from tests.factories import TOY_KIND, client_for

pytestmark = pytest.mark.django_db

BODY = {"game": TOY_KIND, "players": 2, "turn_hours_min": 12, "turn_hours_max": 48}


def test_post_list_and_withdraw(toy_games, anna, bert):
    api = client_for(anna)
    answer = api.post("/api/quickmatch/", {**BODY, "rating_range": 150}, format="json")
    assert answer.status_code == 201, answer.json()
    seek = answer.json()
    assert seek["status"] == "waiting" and seek["game_id"] is None
    assert (seek["rating"], seek["rating_range"], seek["window"]) == (1500, 150, 150)
    assert seek["rated"] is True and seek["ended_at"] is None
    listed = api.get("/api/quickmatch/").json()
    assert listed["count"] == 1 and listed["results"][0]["id"] == seek["id"]
    assert client_for(bert).get("/api/quickmatch/").json()["count"] == 0
    # Someone else's seek is nobody's to withdraw but its player's.
    assert client_for(bert).delete(f"/api/quickmatch/{seek['id']}/").status_code == 404
    assert api.delete(f"/api/quickmatch/{seek['id']}/").status_code == 204
    again = api.delete(f"/api/quickmatch/{seek['id']}/")
    assert again.status_code == 409 and again.json()["code"] == "conflict"
    assert api.get("/api/quickmatch/").json()["results"][0]["status"] == "withdrawn"
    assert api.delete(f"/api/quickmatch/{uuid.uuid4()}/").json()["code"] == "not_found"


def test_a_matched_seek_names_its_game(toy_games, anna, bert):
    client_for(anna).post("/api/quickmatch/", BODY, format="json")
    client_for(bert).post("/api/quickmatch/", BODY, format="json")
    actions.pair_waiting_seeks()
    game = Game.objects.get()
    mine = client_for(anna).get("/api/quickmatch/").json()["results"][0]
    assert mine["status"] == "matched" and mine["game_id"] == str(game.id)
    assert mine["window"] is None
    refused = client_for(anna).delete(f"/api/quickmatch/{mine['id']}/")
    assert refused.status_code == 409 and refused.json()["code"] == "conflict"


@pytest.mark.parametrize(
    "body",
    [
        None,
        [],
        {},
        {**BODY, "game": "chess"},
        {**BODY, "players": "2"},
        {**BODY, "players": 1},
        {**BODY, "players": 4},  # the toy game seats 2 or 3
        {**BODY, "turn_hours_min": 49},
        {**BODY, "turn_hours_max": 10_000},
        {**BODY, "rated": "true"},
        {**BODY, "rating_range": 5000},
        {**BODY, "colour": "white"},
    ],
)
def test_bad_bodies_are_400_invalid_and_change_nothing(toy_games, anna, body):
    answer = client_for(anna).post("/api/quickmatch/", body, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "invalid", answer.json()
    assert not Seek.objects.exists()


def test_refusals_in_the_callers_language(toy_games, anna, settings):
    settings.SEEKS_PER_HOUR = 1
    api = client_for(anna)
    api.post("/api/quickmatch/", BODY, format="json")
    answer = api.post("/api/quickmatch/", BODY, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 429 and answer.json()["code"] == "throttled"
    assert "Stunde" in answer.json()["detail"]


def test_suspended_and_anonymous(toy_games, anna, moderator):
    key = client_for(anna)
    do_suspend_user(moderator, anna, "spam")
    answer = key.post("/api/quickmatch/", BODY, format="json")
    assert answer.status_code == 403 and answer.json()["code"] == "suspended"
    assert client_for(None).get("/api/quickmatch/").status_code == 401


def test_the_page_posts_lists_and_withdraws(toy_games, client, anna):
    client.force_login(anna)
    page = client.get("/quickmatch/")
    assert page.status_code == 200 and b"data-seek-form" in page.content
    assert b'href="/quickmatch/" aria-current="page"' in page.content  # the header's link
    answer = client.post(
        "/quickmatch/",
        {
            "game": TOY_KIND,
            "players": 2,
            "turn_hours_min": 24,
            "turn_hours_max": 72,
            "rated": "on",
            "rating_range": 200,
        },
        follow=True,
    )
    assert answer.status_code == 200
    seek = Seek.objects.get(user=anna)
    assert seek.status == SeekStatus.WAITING and seek.rated
    content = answer.content.decode()
    assert "Your seek is posted" in content and f'data-seek="{seek.id}"' in content
    assert "24 to 72 hours per turn" in content
    answer = client.post(f"/quickmatch/{seek.id}/withdraw/", follow=True)
    assert "Your seek is withdrawn." in answer.content.decode()
    seek.refresh_from_db()
    assert seek.status == SeekStatus.WITHDRAWN
    # Twice: the refusal is shown, nothing changes.
    answer = client.post(f"/quickmatch/{seek.id}/withdraw/", follow=True)
    assert "withdrawn already" in answer.content.decode()


def test_the_page_in_german_with_a_refusal(toy_games, client, anna):
    client.force_login(anna)
    answer = client.post(
        "/quickmatch/",
        {
            "game": TOY_KIND,
            "players": 3,
            "turn_hours_min": 72,
            "turn_hours_max": 24,
            "rating_range": 200,
        },
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert answer.status_code == 400
    assert not Seek.objects.exists()
    assert 'lang="de"' in answer.content.decode()


def test_a_matched_seek_links_its_game_on_the_page(toy_games, client, anna, bert):
    for person in (anna, bert):
        actions.do_post_seek(person, game=TOY_KIND, players=2, turn_hours_min=24, turn_hours_max=24)
    actions.pair_waiting_seeks()
    game = Game.objects.get()
    client.force_login(anna)
    content = client.get("/quickmatch/").content.decode()
    assert f'href="/games/{game.id}/"' in content and "24 hours per turn" in content
