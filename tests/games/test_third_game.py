"""A third game added through the catalogue alone (one folder, one line in GAME_PACKAGES):
tic-tac-toe (tests/toygame) with only the required pieces of a spec and a mail grammar,
played over the API, by email, on the table page and in the replay with the fallbacks."""

from importlib import import_module

import pytest
from django.urls import reverse

from games import catalogue
from games.models import Game, GameStatus
from notifications.models import OutboundEmail
from tests.factories import client_for
from tests.mailin.conftest import REPLY_ADDRESS, SIGNING_KEY, build_reply, latest_reply_to, pipe


@pytest.fixture
def with_tictactoe(toy_games, settings):
    # toy_games (tests/conftest.py) adds "tests.toygame" to GAME_PACKAGES, as any game is added.
    settings.REPLY_ADDRESS = REPLY_ADDRESS
    settings.ANYMAIL = {"MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY}
    # pytest-django restores the setting after the test, and the catalogue (which listens
    # to setting_changed) forgets the toy with it.


def test_the_catalogue_finds_the_toy_through_the_setting_alone(with_tictactoe, settings):
    spec = catalogue.spec_for("tictactoe")
    assert spec.name == "Tic-tac-toe"
    listed = [import_module(path).SPEC.kind for path in settings.GAME_PACKAGES]
    assert "tictactoe" in listed
    assert catalogue.kinds() == sorted(listed)
    assert spec.words is None and spec.table_context is None and spec.replay_page is None


def test_an_unknown_kind_is_one_lookup_error_naming_the_games():
    with pytest.raises(catalogue.UnknownGame, match=f"available: {', '.join(catalogue.kinds())}"):
        catalogue.spec_for("tictactoe")


def _move(client, game, cell):
    body = {"version": Game.objects.get(id=game).version, "action": "mark", "cell": cell}
    return client.post(f"/api/games/{game}/moves/", body, format="json")


@pytest.mark.django_db
def test_a_whole_game_of_a_third_game_over_api_email_page_and_replay(
    with_tictactoe, anna, bert, client
):
    response = client_for(anna).post(
        "/api/games/", {"game": "tictactoe", "players": [anna.email, bert.email]}, format="json"
    )
    assert response.status_code == 201, response.json()
    game_id = response.json()["id"]
    assert client_for(bert).post(f"/api/games/{game_id}/accept/").status_code == 200

    # The turn email, drawn with the generic email parts and words.
    turn = OutboundEmail.objects.filter(template="your_turn", to=anna.email).latest("id")
    body = turn.rendered().body_text
    assert "THE TABLE" in body and "board: " in body

    # Over the API: the engine judges the raw action (no move serializer of its own).
    answer = _move(client_for(anna), game_id, 5)
    assert answer.status_code == 200, answer.json()
    assert answer.json()["state"]["board"][4] == "X"
    refused = _move(client_for(bert), game_id, 5)
    assert refused.json()["code"] == "illegal_action"
    assert _move(client_for(bert), game_id, "five").json()["code"] == "illegal_action"

    # By email, with the toy's one-line grammar; no hints, so none are offered.
    pipe(build_reply(bert.email, latest_reply_to(bert), "1\n\n> quoted"))
    game = Game.objects.get(id=game_id)
    assert (game.version, game.load_state().cells[0]) == (2, 1)
    answer = OutboundEmail.objects.filter(template="mail_answer", to=bert.email).latest("id")
    assert "You played mark (cell 1)." in answer.rendered().body_text

    # On the page: the generic table, and its one button per legal action plays.
    client.force_login(anna)
    page = client.get(reverse("games:game", args=[game_id]))
    assert page.status_code == 200
    assert b"data-table-view" in page.content and b'name="move"' in page.content
    client.post(
        reverse("games:move", args=[game_id]),
        {"version": 2, "move": '{"action": "mark", "cell": 9}'},
    )
    assert Game.objects.get(id=game_id).version == 3
    assert _move(client_for(bert), game_id, 2).status_code == 200
    assert _move(client_for(anna), game_id, 8).status_code == 200
    assert _move(client_for(bert), game_id, 4).status_code == 200
    assert _move(client_for(anna), game_id, 7).status_code == 200  # X holds 7, 8 and 9
    game = Game.objects.get(id=game_id)
    assert game.status == GameStatus.FINISHED

    # The replay: the generic one, each move in words and the table now at the last step.
    replay = client.get(reverse("games:replay", args=[game_id]), {"step": 1})
    assert replay.status_code == 200
    assert "You played mark (cell 5)." in replay.content.decode()
    last = client.get(reverse("games:replay", args=[game_id])).content.decode()
    assert "Won by: " in last and "board" in last
