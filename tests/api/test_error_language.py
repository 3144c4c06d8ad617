"""API error ``detail`` in the caller's language: their setting, else ``Accept-Language``.

The ``code`` never changes with the language: programs branch on it, people read the detail.
"""

import pytest

from accounts.models import User
from tests.factories import client_for

pytestmark = pytest.mark.django_db


# Moves of the toy game (tic-tac-toe): the platform's refusals are any game's.
MARK_1, MARK_2 = {"action": "mark", "cell": 1}, {"action": "mark", "cell": 2}


def move(client, game, version, action=MARK_1, **headers):
    return client.post(
        f"/api/games/{game.id}/moves/",
        {"version": version, **action},
        format="json",
        **headers,
    )


def test_accept_language_german_gives_a_german_detail(toy_game, bert):
    response = move(client_for(bert), toy_game, 0, HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5")

    assert response.status_code == 409
    assert response.json() == {"code": "not_your_turn", "detail": "Du bist nicht am Zug."}
    assert response["Content-Language"] == "de"


def test_without_a_setting_or_header_the_detail_is_english(toy_game, bert):
    response = move(client_for(bert), toy_game, 0)

    assert response.json() == {"code": "not_your_turn", "detail": "It is not your turn."}
    assert response["Content-Language"] == "en"


def test_the_players_own_setting_beats_accept_language(toy_game, anna, bert):
    User.objects.filter(pk=bert.pk).update(language="de")
    response = move(client_for(bert), toy_game, 0, HTTP_ACCEPT_LANGUAGE="en")
    assert response.json()["detail"] == "Du bist nicht am Zug."

    User.objects.filter(pk=bert.pk).update(language="en")
    assert move(client_for(anna), toy_game, 0).status_code in (200, 201)
    # Bert's turn now; from version 0 (not Anna's move replayed, another action): stale.
    stale = move(client_for(bert), toy_game, 0, MARK_2, HTTP_ACCEPT_LANGUAGE="de")
    assert stale.json()["code"] == "stale_version"
    assert stale.json()["detail"].startswith("The game has moved on to version 1")


def test_details_with_values_keep_them_in_german(toy_game, anna, bert):
    move(client_for(anna), toy_game, 0)
    response = move(client_for(bert), toy_game, 0, MARK_2, HTTP_ACCEPT_LANGUAGE="de")
    assert response.json() == {
        "code": "stale_version",
        "detail": "Das Spiel ist bei Version 1 angekommen; lade es neu und wähle noch einmal.",
    }


def test_drfs_own_messages_come_translated(db):
    response = client_for(None).get("/api/games/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 401
    assert response.json() == {"code": "not_authenticated", "detail": "Anmeldedaten fehlen."}


def test_settings_refusals_are_german_too(anna):
    response = client_for(anna).patch(
        "/api/me/settings/", {"time_zone": "Mars/Olympus"}, format="json", HTTP_ACCEPT_LANGUAGE="de"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "ist keine bekannte Zeitzone" in response.json()["detail"]


def test_the_language_setting_is_read_and_changed_through_me_settings(anna):
    client = client_for(anna)
    assert client.get("/api/me/settings/").json()["language"] == ""

    changed = client.patch("/api/me/settings/", {"language": "de"}, format="json")
    assert changed.status_code == 200 and changed.json()["language"] == "de"
    anna.refresh_from_db()
    assert anna.language == "de"
    # From now on her answers are German without any header.
    assert client.get("/api/games/nothing/").status_code == 404
    refused = client.patch("/api/me/settings/", {"language": "fr"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid"
    assert "fr" in refused.json()["detail"]
    assert (
        client.patch("/api/me/settings/", {"language": ""}, format="json").json()["language"] == ""
    )


def test_the_engines_refusals_are_german_too(game, anna):
    # The pure engine speaks English; the service gives its refusal in the reader's language.
    # Piratz's game: the refusal's words are its own.
    client = client_for(anna)
    english = move(client, game, 0, {"action": "end_turn"})
    assert english.json()["code"] == "illegal_action"
    german = move(client, game, 0, {"action": "end_turn"}, HTTP_ACCEPT_LANGUAGE="de")
    assert german.json() == {
        "code": "illegal_action",
        "detail": (
            "Dieser Zug ist an dieser Stelle deines Zuges nicht möglich: Zu Beginn darfst du "
            "eine Karte aufdecken oder aussteigen; nach dem Aufdecken deinen Zug beenden oder "
            "aussteigen; bei einem Rattenalarm eine der beiden Ratten behalten."
        ),
    }
