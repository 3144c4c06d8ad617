"""``/api/people/``: following, blocks and followed games, in the API's one error shape."""

import pytest

from people.models import Block, Follow, FollowedGame
from tests.factories import client_for

pytestmark = pytest.mark.django_db


def test_follow_list_and_unfollow_a_player(anna, bert):
    api = client_for(anna)
    made = api.post("/api/people/following/", {"player": bert.public_id}, format="json")
    assert made.status_code == 201
    assert made.json()["player"] == bert.public_id and made.json()["name"] == "Bert"
    again = api.post("/api/people/following/", {"player": bert.public_id}, format="json")
    assert again.status_code == 200 and again.json() == made.json()
    listed = api.get("/api/people/following/").json()
    assert listed["count"] == 1 and listed["results"] == [made.json()]
    assert "bert@example.com" not in str(listed)  # players by page and name, never address
    assert api.delete(f"/api/people/following/{bert.public_id}/").status_code == 204
    assert api.delete(f"/api/people/following/{bert.public_id}/").status_code == 204
    assert not Follow.objects.exists()


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({}, 400, "invalid"),
        ({"player": 12}, 400, "invalid"),
        ({"player": "x" * 17}, 400, "invalid"),
        ({"player": "nobody0000"}, 404, "not_found"),
        ({"player": "abc", "extra": 1}, 400, "invalid"),
    ],
)
@pytest.mark.parametrize("path", ["/api/people/following/", "/api/people/blocks/"])
def test_bad_requests_answer_in_the_error_shape(anna, path, body, status, code):
    answer = client_for(anna).post(path, body, format="json")
    assert answer.status_code == status
    assert answer.json()["code"] == code and answer.json()["detail"]
    assert not Follow.objects.exists() and not Block.objects.exists()


def test_following_or_blocking_oneself_is_invalid(anna):
    for path in ("/api/people/following/", "/api/people/blocks/"):
        answer = client_for(anna).post(path, {"player": anna.public_id}, format="json")
        assert answer.status_code == 400 and answer.json()["code"] == "invalid"


def test_block_list_and_unblock(anna, bert):
    api = client_for(anna)
    assert (
        api.post("/api/people/blocks/", {"player": bert.public_id}, format="json").status_code
        == 201
    )
    assert [b["player"] for b in api.get("/api/people/blocks/").json()["results"]] == [
        bert.public_id
    ]
    # Bert's own list shows nothing of it.
    assert client_for(bert).get("/api/people/blocks/").json()["count"] == 0
    assert api.delete(f"/api/people/blocks/{bert.public_id}/").status_code == 204
    assert not Block.objects.exists()
    missing = api.delete("/api/people/blocks/nobody0000/")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_follow_a_public_game(public_game, anna, carla):
    api = client_for(carla)
    made = api.post("/api/people/followed-games/", {"game": str(public_game.id)}, format="json")
    assert made.status_code == 201
    assert made.json()["game"] == str(public_game.id) and made.json()["status"] == "active"
    assert api.get("/api/people/followed-games/").json()["count"] == 1
    seated = client_for(anna).post(
        "/api/people/followed-games/", {"game": str(public_game.id)}, format="json"
    )
    assert seated.status_code == 409 and seated.json()["code"] == "conflict"
    assert api.delete(f"/api/people/followed-games/{public_game.id}/").status_code == 204
    assert not FollowedGame.objects.exists()


def test_a_private_game_is_not_found(toy_game, carla):
    answer = client_for(carla).post(
        "/api/people/followed-games/", {"game": str(toy_game.id)}, format="json"
    )
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    bad = client_for(carla).post("/api/people/followed-games/", {"game": 5}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"


@pytest.mark.parametrize(
    "path", ["/api/people/following/", "/api/people/blocks/", "/api/people/followed-games/"]
)
def test_signed_in_callers_only(db, path):
    assert client_for(None).get(path).status_code == 401


def test_the_schema_documents_the_endpoints(anna):
    schema = client_for(anna).get("/api/schema/?format=json").json()
    for path in (
        "/api/people/following/",
        "/api/people/following/{public_id}/",
        "/api/people/blocks/",
        "/api/people/blocks/{public_id}/",
        "/api/people/followed-games/",
        "/api/people/followed-games/{game_id}/",
    ):
        assert path in schema["paths"], path
