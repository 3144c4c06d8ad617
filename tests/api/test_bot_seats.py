"""The API of bots at the table: seating bots at creation, how bot seats show, taking back."""

import pytest

from games import actions
from games.models import Seat, SeatChange
from tests.factories import client_for

pytestmark = pytest.mark.django_db


def create(user, players, **fields):
    return client_for(user).post(
        "/api/games/", {"game": "piratz", "players": players, **fields}, format="json"
    )


def test_a_host_seats_bots_and_they_show_with_name_and_level(anna, bert):
    answer = create(anna, [anna.email, "bot:careful", bert.email])

    assert answer.status_code == 201, answer.json()
    game = answer.json()
    assert game["status"] == "invited"  # Bert has not accepted yet
    assert game["stand_in_bots"] is True  # the default for 3-4 players
    assert game["seats"][1]["name"] == "Calico Jack (careful bot)"
    # Beside it, the short label the pages show and the seat's role, for clients to build on.
    assert (game["seats"][1]["label"], game["seats"][1]["role"]) == ("Calico Jack · bot", "bot")
    assert (game["seats"][0]["label"], game["seats"][0]["role"]) == ("Anna", "player")
    assert game["seats"][1]["bot"] == {"level": "careful", "standing_in": False}
    assert game["seats"][1]["accepted"] is True
    # Humans' seats keep the fields of docs/api.md "Games, moves and versions", with no bot.
    assert {k: game["seats"][0][k] for k in ("seat", "name", "accepted", "bot")} == {
        "seat": 0,
        "name": "Anna",
        "accepted": True,
        "bot": None,
    }


def test_a_game_with_only_the_host_and_bots_starts_at_once(anna):
    answer = create(anna, [anna.email, "BOT:Random"], stand_in_bots=True)
    assert answer.status_code == 201
    assert (answer.json()["status"], answer.json()["stand_in_bots"]) == ("active", True)
    assert answer.json()["seats"][1]["bot"]["level"] == "random"


def test_two_player_games_default_to_no_stand_ins(anna, bert):
    assert create(anna, [anna.email, bert.email]).json()["stand_in_bots"] is False


@pytest.mark.parametrize(
    ("players", "extra", "says"),
    [
        (["anna@example.com", "bot:genius"], {}, "Unknown bot level"),
        (["anna@example.com", "bot:"], {}, "Unknown bot level"),
        (["bot:careful", "bot:strong"], {}, "Your own address"),
        (["anna@example.com", "robot@"], {}, "valid email"),
        (["anna@example.com", "bot:careful"], {"stand_in_bots": "yes"}, "stand_in_bots"),
    ],
)
def test_bad_bot_seats_are_invalid(anna, players, extra, says):
    answer = create(anna, players, **extra)
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid" and says in answer.json()["detail"]


def test_taking_the_seat_back_over_the_api(anna, bert, moderator):
    game = actions.do_create_game(anna, [anna.email, bert.email])
    actions.do_accept_invitation(game.id, bert)
    actions.do_replace_with_bot(game.id, moderator, 1, reason="Away for weeks")
    url = f"/api/games/{game.id}/take-back/"

    seen = client_for(bert).get(f"/api/games/{game.id}/").json()["seats"][1]
    assert seen["bot"] == {"level": "careful", "standing_in": True}
    assert "a careful bot stands in" in seen["name"]
    assert (seen["label"], seen["role"]) == ("Bert · bot", "stand_in")

    answer = client_for(bert).post(url)
    assert answer.status_code == 200
    assert answer.json()["seats"][1]["bot"] is None
    assert Seat.objects.get(game=game, seat=1).bot == ""
    assert SeatChange.objects.filter(game=game, kind="taken_back", actor_user=bert).exists()

    again = client_for(bert).post(url)  # nothing to take back now
    # A state of the game, not a bad request: 409 (the body was fine).
    assert (again.status_code, again.json()["code"]) == (409, "not_standing_in")
    assert client_for(None).post(url).status_code == 401


def test_outsiders_cannot_take_a_seat_back(anna, bert, outsider):
    game = actions.do_create_game(anna, [anna.email, bert.email])
    answer = client_for(outsider).post(f"/api/games/{game.id}/take-back/")
    assert (answer.status_code, answer.json()["code"]) == (404, "not_found")


def test_the_schema_documents_bots(anna):
    schema = client_for(anna).get("/api/schema/?format=json").json()
    assert "/api/games/{game_id}/take-back/" in schema["paths"]
    seat = schema["components"]["schemas"]["Seat"]["properties"]
    assert "bot" in seat
    components = schema["components"]["schemas"]
    # A new game is one shape per game: each takes stand_in_bots and names its bots.
    for ref in components["GameCreateRequest"]["discriminator"]["mapping"].values():
        create_body = components[ref.rsplit("/", 1)[1]]["properties"]
        assert "stand_in_bots" in create_body
        assert "bot:" in create_body["players"]["items"]["anyOf"][1]["pattern"]
