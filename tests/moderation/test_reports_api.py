"""POST /api/reports/: validation, who may report what, the throttle, the schema."""

import pytest

from moderation.models import Report
from tests.factories import client_for, start_toy_game
from tests.throttles import api_rates

pytestmark = pytest.mark.django_db


def post(user, body):
    return client_for(user).post("/api/reports/", body, format="json")


def test_a_player_reports_another_player_of_their_game(toy_game, bert, anna):
    response = post(
        bert, {"game": str(toy_game.id), "seat": 0, "category": "abuse", "text": "Rude."}
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert {k: body[k] for k in ("game", "seat", "category", "text", "status")} == {
        "game": str(toy_game.id),
        "seat": 0,
        "category": "abuse",
        "text": "Rude.",
        "status": "open",
    }
    report = Report.objects.get()
    assert (report.reporter, report.reported_user, report.game_id) == (bert, anna, toy_game.id)


def test_a_player_reports_a_game_without_naming_a_player(toy_games, anna, bert, carla):
    game = start_toy_game([anna, bert, carla])
    response = post(carla, {"game": str(game.id), "category": "other", "text": "Odd game."})
    assert response.status_code == 201
    assert Report.objects.get().reported_user is None


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"category": "rudeness"}, "category"),
        ({"text": "   "}, "text"),
        ({"text": "x" * 2001}, "text"),
        ({"seat": 7}, "seat"),
        ({"seat": 1}, "yourself"),  # Bert's own seat
        ({"seat": "0"}, "seat"),
        ({"game": "not-a-uuid"}, "game"),
        ({"colour": "red"}, "Unknown fields"),
        ({"text": None}, "text"),
    ],
)
def test_malformed_reports_are_invalid_and_store_nothing(toy_game, bert, change, field):
    body = {"game": str(toy_game.id), "seat": 0, "category": "abuse", "text": "Rude.", **change}
    response = post(bert, body)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"
    assert field in response.content.decode()
    assert not Report.objects.exists()


@pytest.mark.parametrize(
    "change",
    [
        lambda game: {"game": game.id.int},  # DRF's UUIDField took the integer form
        lambda game: {"game": False},  # ... and booleans, as UUID(int=0)
        lambda game: {"text": 12},  # DRF's CharField took a number as its digits
        lambda game: {"text": True},
    ],
)
def test_the_game_and_text_must_be_json_strings(toy_game, bert, change):
    """docs/api.md "Errors": a wrong type is a malformed body (400 ``invalid``), never coerced
    into a report (it was filed: 201) or a lookup of a game (404)."""
    body = {"game": str(toy_game.id), "seat": 0, "category": "abuse", "text": "Rude."}
    response = post(bert, {**body, **change(toy_game)})
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"
    assert not Report.objects.exists()


@pytest.mark.parametrize("text", ["Rude\u001b[2J.", "Rude\u0007.", "\u202e.eduR"])
def test_a_report_text_with_control_characters_is_refused(toy_game, bert, text):
    # Moderators read it on their pages and in the admin: the one rule for typed text.
    response = post(bert, {"game": str(toy_game.id), "category": "abuse", "text": text})
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert response.json()["detail"] == "The text cannot contain control characters."
    assert not Report.objects.exists()


def test_a_report_text_may_have_several_lines(toy_game, bert):
    response = post(bert, {"game": str(toy_game.id), "category": "abuse", "text": "One.\r\nTwo."})
    assert response.status_code == 201
    assert Report.objects.get().text == "One.\nTwo."


def test_a_report_of_2000_characters_is_accepted(toy_game, bert):
    response = post(bert, {"game": str(toy_game.id), "category": "spam", "text": "x" * 2000})
    assert response.status_code == 201


def test_an_outsider_cannot_report_a_game_and_learns_nothing_about_it(toy_game, outsider):
    response = post(outsider, {"game": str(toy_game.id), "category": "spam", "text": "Spam."})
    missing = post(
        outsider,
        {"game": "00000000-0000-0000-0000-000000000000", "category": "spam", "text": "Spam."},
    )
    assert response.status_code == missing.status_code == 404
    assert response.json() == missing.json()
    assert response.json()["code"] == "not_found"
    assert not Report.objects.exists()


def test_staff_without_a_seat_are_told_they_hold_none(toy_game, moderator):
    response = post(moderator, {"game": str(toy_game.id), "category": "spam", "text": "Test."})
    assert response.status_code == 403
    assert response.json()["code"] == "not_a_player"


def test_anonymous_callers_are_not_authenticated(toy_game):
    response = client_for(None).post(
        "/api/reports/", {"game": str(toy_game.id), "category": "spam", "text": "x"}, format="json"
    )
    assert response.status_code == 401


@api_rates(reports="3/hour")
def test_reports_are_throttled_per_user(toy_games, anna, bert, carla):
    game, other_game = start_toy_game([anna, bert, carla]), start_toy_game([bert, carla])
    body = {"game": str(game.id), "category": "spam", "text": "Spam."}
    answers = [post(bert, body).status_code for _ in range(4)]
    assert answers == [201, 201, 201, 429]
    refused = post(bert, {**body, "game": str(other_game.id)})
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    assert post(carla, body).status_code == 201  # another user has a budget of their own
    assert client_for(bert).get("/api/games/").status_code == 200  # other requests still pass
    assert Report.objects.filter(reporter=bert).count() == 3


def test_a_suspended_player_cannot_report(toy_game, bert, moderator):
    from moderation.actions import do_suspend_user

    do_suspend_user(moderator, bert, "Spam.")
    response = post(bert, {"game": str(toy_game.id), "category": "spam", "text": "Spam."})
    assert response.status_code == 403 and response.json()["code"] == "suspended"


def test_the_schema_documents_the_reports_endpoint(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/reports/"]["post"]
    assert {"201", "400", "403", "404", "429"} <= set(operation["responses"])
    # Both ways in are documented, the session cookie too (our subclass of DRF's class).
    assert {"tokenAuth": []} in operation["security"]
    assert {"cookieAuth": []} in operation["security"]
    request = schema["components"]["schemas"]["ReportCreateRequest"]
    assert set(request["properties"]) == {"game", "seat", "category", "text"}
    assert set(request["required"]) == {"game", "category", "text"}
    assert schema["components"]["schemas"]["CategoryEnum"]["enum"] == [
        "abuse",
        "cheating",
        "spam",
        "other",
    ]
