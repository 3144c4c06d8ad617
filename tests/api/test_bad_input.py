"""Bad input never crashes the API: it answers 4xx in the one error shape and changes nothing."""

import io
import json
import random

import pytest
from django.conf import settings as django_settings
from rest_framework.exceptions import ParseError

from core.api.parsers import JSONParser
from games.kinds.piratz import rules as piratz
from games.kinds.piratz.api import PIRATZ_ACTION_FIELDS, PiratzMoveSerializer
from games.kinds.piratz.rules.bots import random_action as choose_action
from games.models import Game, Move
from notifications.models import OutboundEmail
from tests.factories import TOY_KIND, client_for, toy_move

pytestmark = pytest.mark.django_db


def assert_error(response, status, code):
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == code
    assert isinstance(body["detail"], str) and body["detail"]


def post_raw(client, url, body: bytes):
    return client.generic("POST", url, body, content_type="application/json")


@pytest.fixture
def endpoints(toy_game, anna):
    """(client, url) of each endpoint that reads a JSON body, as a caller allowed to use it."""
    player = client_for(anna)  # one client: issuing a key replaces the user's previous one
    return [
        (player, "/api/games/"),
        (player, f"/api/games/{toy_game.id}/moves/"),
        (client_for(None), "/api/auth/login-link/"),
    ]


# --- Bodies the parser refuses ----------------------------------------------------------------


def test_body_over_the_upload_limit_is_413_too_large(endpoints):
    limit = django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    padding = "x" * (limit + 1)
    body = json.dumps({"version": 0, "action": "mark", "padding": padding}).encode()
    for client, url in endpoints:
        assert_error(post_raw(client, url, body), 413, "too_large")
    assert not Move.objects.exists()
    assert Game.objects.count() == 1


def test_body_just_under_the_limit_is_read(endpoints):
    # A plain 400 (unknown field), not 413: the limit is the setting's, not lower.
    body = json.dumps({"version": 0, "action": "reveal", "padding": "x" * 1000}).encode()
    for client, url in endpoints:
        assert_error(post_raw(client, url, body), 400, "invalid")


@pytest.mark.parametrize("depth", [100_000, 1_000, 33])
def test_deeply_nested_json_is_400_invalid(endpoints, depth):
    body = ("[" * depth + "]" * depth).encode()
    for client, url in endpoints:
        response = post_raw(client, url, body)
        assert_error(response, 400, "invalid")
        assert "nests more than 32 levels" in response.json()["detail"]


def test_deeply_nested_value_inside_an_object_is_400_invalid(endpoints):
    nested = "[" * 900 + '"a@example.com"' + "]" * 900
    body = f'{{"email": {nested}, "players": {nested}, "version": {nested}}}'.encode()
    for client, url in endpoints:
        response = post_raw(client, url, body)
        assert_error(response, 400, "invalid")
        assert "nests more than 32 levels" in response.json()["detail"]


def test_json_nested_32_levels_is_still_parsed():
    body = ("[" * 32 + "]" * 32).encode()
    assert JSONParser().parse(io.BytesIO(body)) == json.loads(body)
    with pytest.raises(ParseError):
        JSONParser().parse(io.BytesIO(b"[" + body + b"]"))


def test_ordinary_nesting_still_parses(toy_games, anna):
    response = client_for(anna).post(
        "/api/games/",
        {"game": TOY_KIND, "players": [anna.email, "bert@example.com"]},
        format="json",
    )
    assert response.status_code == 201, response.content


# --- Every answer under /api/ is JSON, whatever DEBUG -----------------------------------------


@pytest.mark.parametrize(
    "path", ["/api/nothing/", "/api/games/abc/", "/api/games/abc/moves/", "/api/auth/nothing/"]
)
@pytest.mark.parametrize("debug", [True, False])
def test_unknown_api_address_is_json_404_whatever_debug(anna, settings, path, debug):
    settings.DEBUG = debug
    response = client_for(anna).get(path)
    assert_error(response, 404, "not_found")
    assert b"<html" not in response.content.lower()


def test_pages_outside_the_api_keep_their_html_404(anna, settings):
    settings.DEBUG = True
    response = client_for(anna).get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_crash_outside_any_view_is_json_500_without_debug_page(anna, settings, monkeypatch):
    """An exception in middleware never reaches the API's exception handler: still JSON."""
    settings.DEBUG = True

    def explode(self, request, *args, **kwargs):
        raise RuntimeError("secret traceback detail")

    monkeypatch.setattr("django.middleware.common.CommonMiddleware.process_request", explode)
    client = client_for(anna)
    client.raise_request_exception = False
    response = client.get("/api/games/")
    assert_error(response, 500, "server_error")
    assert b"secret traceback detail" not in response.content


def test_swagger_page_under_api_is_still_html(db):
    response = client_for(None).get("/api/docs/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("page", ["", "null", "last", "0", "1.0", "-1", "+1", " 1", "²", "99"])
def test_a_page_that_is_not_a_page_number_is_404(toy_game, anna, page):
    assert_error(client_for(anna).get(f"/api/games/?page={page}"), 404, "not_found")


def test_page_one_and_no_page_are_the_first_page(toy_game, anna):
    client = client_for(anna)
    for url in ("/api/games/", "/api/games/?page=1"):
        response = client.get(url)
        assert response.status_code == 200
        assert [g["id"] for g in response.json()["results"]] == [str(toy_game.id)]


# --- Creating a game --------------------------------------------------------------------------


def create(client, **body):
    return client.post("/api/games/", body, format="json")


def test_invitee_address_longer_than_254_characters_is_400(toy_games, anna):
    long_address = "a" * 300 + "@example.com"  # 312 characters
    response = create(client_for(anna), game=TOY_KIND, players=[anna.email, long_address])
    assert_error(response, 400, "invalid")
    assert not Game.objects.exists()
    assert not OutboundEmail.objects.exists()


def test_invitee_address_of_254_characters_is_accepted(toy_games, anna):
    address = "a" * 64 + "@" + "b" * 63 + "." + "c" * 63 + "." + "d" * 57 + ".org"
    assert len(address) == 254
    response = create(client_for(anna), game=TOY_KIND, players=[anna.email, address])
    assert response.status_code == 201, response.content


def test_game_is_required(anna):
    response = create(client_for(anna), players=[anna.email, "bert@example.com"])
    assert_error(response, 400, "invalid")
    assert "game" in response.json()["fields"]
    assert not Game.objects.exists()


def test_players_are_required(toy_games, anna):
    assert_error(create(client_for(anna), game=TOY_KIND), 400, "invalid")


def test_turn_hours_and_blind_stay_optional(toy_games, anna):
    response = create(client_for(anna), game=TOY_KIND, players=[anna.email, "bert@example.com"])
    assert response.status_code == 201, response.content
    assert response.json()["turn_hours"] == 72
    assert response.json()["blind"] is False


# --- Moves: never legal is invalid, not legal now is illegal_action ---------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"version": 0, "action": "pass", "treasure": "gold", "bury": None},
        {"version": 0, "action": "pass", "treasure": "Coins", "bury": None},
        {"version": 0, "action": "pass", "treasure": 3, "bury": None},
        {"version": 0, "action": "pass", "treasure": "coins", "bury": 999},
        {"version": 0, "action": "pass", "treasure": "coins", "bury": 0},
        {"version": 0, "action": "resolve_alarm", "keep": 51, "bury": None},
        {"version": 0, "action": "resolve_alarm", "keep": None, "bury": None},
        {"version": 0, "action": "resolve_alarm", "bury": None},
        {"version": 0, "action": "reveal", "treasure": "coins"},
        {"version": 0, "action": "end_turn", "bury": None},
        {"version": 0, "action": ""},
        {"version": 0, "action": ["reveal"]},
        {"version": 2**31, "action": "reveal"},
        {"version": 10**30, "action": "reveal"},
    ],
)
def test_values_that_can_never_be_legal_are_invalid(game, anna, body):
    response = client_for(anna).post(f"/api/games/{game.id}/moves/", body, format="json")
    assert_error(response, 400, "invalid")
    game.refresh_from_db()
    assert game.version == 0 and not Move.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {"version": 0, "action": "end_turn"},  # wrong phase: nothing is face up yet
        {"version": 0, "action": "pass", "treasure": "coins", "bury": 12},  # row is empty
        {"version": 0, "action": "resolve_alarm", "keep": 3, "bury": None},  # no alarm
    ],
)
def test_well_formed_moves_not_legal_now_are_illegal_action(game, anna, body):
    response = client_for(anna).post(f"/api/games/{game.id}/moves/", body, format="json")
    assert_error(response, 400, "illegal_action")
    assert not Move.objects.exists()


def test_every_legal_action_of_whole_games_passes_the_serializer():
    """The serializer must never refuse a move the engine would take: walk seeded games."""
    seen = set()
    for players, seed in [(2, 1), (3, 2), (4, 3), (3, 4), (4, 5)]:
        rng = random.Random(seed)
        state = piratz.new_game(players, seed=seed)
        while not piratz.is_finished(state):
            seat = piratz.current_seat(state)
            legal = piratz.legal_actions(state, seat)
            for action in legal:
                serializer = PiratzMoveSerializer(data={"version": 5, **action})
                assert serializer.is_valid(), (action, serializer.errors)
                assert serializer.to_action() == action
                seen.add(action["action"])
            state = piratz.apply(state, seat, choose_action(legal, rng, reveal_bias=0.7))
    assert seen == set(PIRATZ_ACTION_FIELDS)


# --- Staff without a seat ---------------------------------------------------------------------


def test_staff_without_a_seat_posting_a_move_is_403_not_a_player(toy_game, moderator):
    response = client_for(moderator).post(
        f"/api/games/{toy_game.id}/moves/", {"version": 0, **toy_move(toy_game)}, format="json"
    )
    assert_error(response, 403, "not_a_player")
    assert not Move.objects.exists()


def test_outsider_posting_a_move_still_gets_404(toy_game, outsider):
    response = client_for(outsider).post(
        f"/api/games/{toy_game.id}/moves/", {"version": 0, **toy_move(toy_game)}, format="json"
    )
    assert_error(response, 404, "not_found")


def test_staff_posting_to_a_missing_game_gets_404(moderator):
    response = client_for(moderator).post(
        "/api/games/00000000-0000-0000-0000-000000000000/moves/",
        {"version": 0, "action": "reveal"},
        format="json",
    )
    assert_error(response, 404, "not_found")


# --- Authentication and the login-link endpoint -----------------------------------------------


def test_bearer_key_works_like_token(toy_game, anna):
    from accounts.models import ApiToken

    key = ApiToken.issue(anna)
    client = client_for(None)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    response = client.get(f"/api/games/{toy_game.id}/")
    assert response.status_code == 200
    assert response.json()["you"] == 0


def test_bad_bearer_key_is_401(db):
    client = client_for(None)
    client.credentials(HTTP_AUTHORIZATION="Bearer pz_not-a-real-key")
    assert_error(client.get("/api/games/"), 401, "not_authenticated")


@pytest.mark.parametrize(
    "body",
    [
        {"email": "anna@example.com", "next": 0},
        {"email": "anna@example.com", "next": 1.5},
        {"email": "anna@example.com", "next": ["/games/"]},
        {"email": 5},
        {"email": ["anna@example.com"]},
        {"email": "anna@example.com", "nxt": "/"},
    ],
)
def test_login_link_wrong_types_are_400(db, body):
    response = client_for(None).post("/api/auth/login-link/", body, format="json")
    assert_error(response, 400, "invalid")
    assert not OutboundEmail.objects.exists()
