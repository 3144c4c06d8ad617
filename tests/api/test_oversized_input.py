"""Oversized lists and objects are refused before their items are read, in a short answer.

A body of 100,000 list items or unknown keys fits the upload limit; it must be refused by
its size alone (never one item validated) and answered in an error of constant size.
Games are the toy game's, except where a body needs Piratz's own (its typed move
serializer, its standing order).
"""

import json

import pytest
from rest_framework import exceptions

from accounts.models import NotificationSettings
from core.api.errors import MAX_ERROR_MESSAGES, api_exception_handler
from games.models import Game, Seat
from moderation.models import Report
from tests.factories import TOY_KIND, client_for
from webhooks.models import Webhook

pytestmark = pytest.mark.django_db

HUGE = 100_000
# Far above what any answer needs, far below what one per item would take (~50 bytes each).
SMALL_ANSWER_BYTES = 10_000


def huge_keys() -> dict:
    return {f"unknown{i:06d}": 1 for i in range(HUGE)}


def send(client, method: str, url: str, body):
    return client.generic(method, url, json.dumps(body), content_type="application/json")


def assert_refused_briefly(response, says: str) -> dict:
    assert response.status_code == 400, response.content[:500]
    assert len(response.content) < SMALL_ANSWER_BYTES, len(response.content)
    body = response.json()
    assert body["code"] == "invalid"
    assert says in body["detail"], body["detail"]
    return body


# --- Lists: their length is checked before any item --------------------------------------------


def test_a_new_game_with_100000_players_is_refused_by_its_length(toy_games, anna):
    response = send(
        client_for(anna), "POST", "/api/games/", {"game": TOY_KIND, "players": ["1"] * HUGE}
    )
    body = assert_refused_briefly(response, "no more than 4 elements")
    # One message for the list, none per item: no item was validated.
    assert body["fields"] == {"players": ["Ensure this field has no more than 4 elements."]}
    assert not Game.objects.exists()


def test_a_standing_order_of_100000_names_is_refused_by_its_length(game, bert):
    url = f"/api/games/{game.id}/standing-order/"
    response = send(client_for(bert), "PUT", url, {"standing_order": [None] * HUGE})
    body = assert_refused_briefly(response, "no more than 6 elements")
    assert list(body["fields"]) == ["standing_order"]
    assert Seat.objects.get(game=game, user=bert).standing_order == []


@pytest.mark.parametrize("field", ["reminder_leads", "unsubscribed"])
def test_settings_lists_of_100000_items_are_refused_by_their_length(anna, field):
    # Each item is bad ("x" is neither an hour nor a kind): one message says none was read.
    response = send(client_for(anna), "PATCH", "/api/me/settings/", {field: ["x"] * HUGE})
    body = assert_refused_briefly(response, "no more than")
    assert list(body["fields"]) == [field]
    assert len(body["fields"][field]) == 1
    assert not NotificationSettings.objects.exists()


def test_lists_within_their_length_still_have_each_item_checked(anna):
    response = send(client_for(anna), "PATCH", "/api/me/settings/", {"reminder_leads": ["x"]})
    body = assert_refused_briefly(response, "reminder_leads")
    assert body["fields"] == {"reminder_leads": {"0": ["A valid integer is required."]}}


# --- Objects: unknown keys are counted, a few named --------------------------------------------


def test_login_link_with_100000_unknown_keys_names_a_few(db):
    body = {"email": "anna@example.com", **huge_keys()}
    response = send(client_for(None), "POST", "/api/auth/login-link/", body)
    answer = assert_refused_briefly(response, "99995 more unknown fields")
    assert "unknown000000: Unknown field." in answer["detail"]
    assert "unknown000005" not in answer["detail"]


def test_settings_with_100000_unknown_keys_names_a_few(anna):
    response = send(client_for(anna), "PATCH", "/api/me/settings/", huge_keys())
    assert_refused_briefly(response, "99995 more unknown fields")


def test_a_vacation_with_100000_unknown_keys_names_a_few(anna):
    body = {"ends_at": "2099-01-01T00:00:00Z", **huge_keys()}
    response = send(client_for(anna), "POST", "/api/me/vacations/", body)
    assert_refused_briefly(response, "99995 more unknown fields")


def test_a_new_game_with_100000_unknown_keys_names_a_few(toy_games, anna):
    body = {"game": TOY_KIND, "players": [anna.email, "bert@example.com"], **huge_keys()}
    response = send(client_for(anna), "POST", "/api/games/", body)
    answer = assert_refused_briefly(response, "99995 more unknown fields")
    assert "Unknown fields: unknown000000, unknown000001" in answer["detail"]
    assert not Game.objects.exists()


def test_a_move_with_100000_unknown_keys_names_a_few(game, anna):
    # Piratz's typed move serializer (the toy game's moves go to its engine, below).
    body = {"version": 0, "action": "reveal", **huge_keys()}
    response = send(client_for(anna), "POST", f"/api/games/{game.id}/moves/", body)
    assert_refused_briefly(response, "99995 more unknown fields")


def test_a_move_of_no_known_action_with_100000_keys_is_answered_briefly(toy_game, anna):
    # AnyGameMoveSerializer hands the keys to the engine, which refuses the action.
    body = {"version": 0, "action": "no_such_action", **huge_keys()}
    response = send(client_for(anna), "POST", f"/api/games/{toy_game.id}/moves/", body)
    assert response.status_code == 400
    assert len(response.content) < SMALL_ANSWER_BYTES
    toy_game.refresh_from_db()
    assert toy_game.version == 0


def test_other_strict_bodies_with_100000_unknown_keys_name_a_few(game, bert):
    client = client_for(bert)
    for method, url in [
        ("PUT", f"/api/games/{game.id}/standing-order/"),
        ("POST", f"/api/games/{game.id}/webhooks/"),
        ("POST", "/api/reports/"),
    ]:
        response = send(client, method, url, huge_keys())
        assert response.status_code == 400, (url, response.content[:300])
        assert len(response.content) < SMALL_ANSWER_BYTES, url
    assert not Webhook.objects.exists() and not Report.objects.exists()


# --- Any error answer is of constant size -------------------------------------------------------


def test_a_value_echoed_in_an_error_is_shortened(anna):
    body = {"game": "x" * 1_000_000, "players": [anna.email, "bert@example.com"]}
    response = send(client_for(anna), "POST", "/api/games/", body)
    answer = assert_refused_briefly(response, "is not a valid choice")
    assert "…" in answer["fields"]["game"][0]


def test_the_exception_handler_caps_messages_and_says_so():
    detail = {f"field{i}": ["x" * 10_000, "y"] for i in range(HUGE)}
    response = api_exception_handler(exceptions.ValidationError(detail), {"view": None})
    body = response.data
    assert len(json.dumps(body)) < SMALL_ANSWER_BYTES
    assert body["detail"].endswith("Further problems were left out.")
    assert sum(len(messages) for messages in body["fields"].values()) == MAX_ERROR_MESSAGES


def test_an_error_within_the_cap_is_answered_whole():
    detail = {"a": ["one.", "two."], "b": {"0": ["three."]}}
    response = api_exception_handler(exceptions.ValidationError(detail), {"view": None})
    assert response.data["detail"] == "a: one. two. b: 0: three."
    assert response.data["fields"] == detail
