"""Who may do what: every endpoint against each kind of caller (docs/api.md "Games, moves and
versions")."""

import pytest
from django.test import Client

from games.models import Move
from tests.factories import client_for

pytestmark = pytest.mark.django_db

# (method, path template, body) -> expected status per caller. Anna is to move in `toy_game`
# (tic-tac-toe: who may do what is the same in any game).
MATRIX = [
    (
        "get",
        "/api/games/{id}/",
        None,
        {"to_move": 200, "other_player": 200, "outsider": 404, "staff": 200, "anonymous": 401},
    ),
    (
        "get",
        "/api/games/{id}/moves/",
        None,
        {"to_move": 200, "other_player": 200, "outsider": 404, "staff": 200, "anonymous": 401},
    ),
    (
        "post",
        "/api/games/{id}/moves/",
        {"version": 0, "action": "mark", "cell": 1},
        {"to_move": 200, "other_player": 409, "outsider": 404, "staff": 403, "anonymous": 401},
    ),
    (
        "post",
        "/api/games/{id}/accept/",
        None,
        {"to_move": 200, "other_player": 200, "outsider": 404, "staff": 404, "anonymous": 401},
    ),
    (
        "post",
        "/api/games/{id}/decline/",
        None,
        {"to_move": 409, "other_player": 409, "outsider": 404, "staff": 404, "anonymous": 401},
    ),
    (
        "get",
        "/api/games/",
        None,
        {"to_move": 200, "other_player": 200, "outsider": 200, "staff": 200, "anonymous": 401},
    ),
]


@pytest.fixture
def callers(anna, bert, outsider, moderator):
    return {
        "to_move": anna,
        "other_player": bert,
        "outsider": outsider,
        "staff": moderator,
        "anonymous": None,
    }


@pytest.mark.parametrize(("method", "path", "body", "expected"), MATRIX)
@pytest.mark.parametrize("caller", ["to_move", "other_player", "outsider", "staff", "anonymous"])
def test_authorization_matrix(toy_game, callers, caller, method, path, body, expected):
    client = client_for(callers[caller])
    url = path.format(id=toy_game.id)
    response = getattr(client, method)(url, body, format="json")
    assert response.status_code == expected[caller], response.content
    if response.status_code >= 400:
        assert set(response.json()) >= {"code", "detail"}
    moved = Move.objects.filter(game=toy_game).exists()
    assert moved == (method == "post" and "moves" in url and expected[caller] == 200)


def test_a_browser_session_from_a_login_link_uses_the_api(toy_game, anna):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(anna)
    assert browser.get(f"/api/games/{toy_game.id}/").json()["you"] == 0
    # Session-authenticated writes need the CSRF token, as any browser form would.
    refused = browser.post(
        f"/api/games/{toy_game.id}/moves/",
        {"version": 0, "action": "mark", "cell": 1},
        content_type="application/json",
    )
    assert refused.status_code == 403
    browser.get("/accounts/login/")  # sets the CSRF cookie
    token = browser.cookies["csrftoken"].value
    played = browser.post(
        f"/api/games/{toy_game.id}/moves/",
        {"version": 0, "action": "mark", "cell": 1},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert played.status_code == 200
