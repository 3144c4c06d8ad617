"""One error shape everywhere under /api/: 401, 404, 405, 429 and unexpected 500s."""

import pytest
from rest_framework.throttling import UserRateThrottle

from tests.factories import client_for

pytestmark = pytest.mark.django_db


def assert_error(response, status, code):
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == code
    assert isinstance(body["detail"], str) and body["detail"]


def test_unknown_api_address_is_json_404(anna):
    assert_error(client_for(anna).get("/api/nothing-here/"), 404, "not_found")


def test_malformed_game_id_is_json_404(anna):
    assert_error(client_for(anna).get("/api/games/not-a-uuid/"), 404, "not_found")


def test_wrong_method_is_405(toy_game, anna):
    assert_error(client_for(anna).delete(f"/api/games/{toy_game.id}/"), 405, "method_not_allowed")


def test_missing_credentials_are_401_with_challenge(db):
    response = client_for(None).get("/api/games/")
    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"


def test_too_many_requests_are_429(anna, monkeypatch, settings):
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "2/min"})
    monkeypatch.setattr("rest_framework.views.APIView.throttle_classes", [UserRateThrottle])
    client = client_for(anna)
    assert client.get("/api/games/").status_code == 200
    assert client.get("/api/games/").status_code == 200
    assert_error(client.get("/api/games/"), 429, "throttled")


def test_unexpected_errors_are_json_500_and_logged(anna, monkeypatch, caplog):
    def explode(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr("games.queries.games_of", explode)
    client = client_for(anna)
    client.raise_request_exception = False
    response = client.get("/api/games/")
    assert_error(response, 500, "server_error")
    assert "boom" not in response.content.decode()
    assert "boom" in caplog.text


def test_schema_is_openapi_3_and_public(db):
    response = client_for(None).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    paths = schema["paths"]
    for path in (
        "/api/games/",
        "/api/games/{game_id}/",
        "/api/games/{game_id}/accept/",
        "/api/games/{game_id}/decline/",
        "/api/games/{game_id}/moves/",
        "/api/auth/login-link/",
    ):
        assert path in paths, path
    assert "post" in paths["/api/games/{game_id}/moves/"]


def test_interactive_docs_page(db):
    response = client_for(None).get("/api/docs/")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()
