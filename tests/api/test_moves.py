"""Playing moves through the API: success, every refusal, replays and the move log.

What the platform does with any move (access, versions, a repeated move, bodies that are
no move) is played on the toy game; what a Piratz move does and logs, on Piratz.
"""

import pytest

from games.kinds.piratz import rules as piratz
from games.kinds.piratz.models import BuriedCard
from games.models import Game, Move
from tests.factories import client_for, start_toy_game, toy_move

pytestmark = pytest.mark.django_db


def play(client, game, version, **action):
    return client.post(
        f"/api/games/{game.id}/moves/", {"version": version, **action}, format="json"
    )


def engine_state(game: Game):
    game.refresh_from_db()
    return piratz.load(game.state)


def test_player_to_move_reveals(game, anna):
    before = engine_state(game)
    expected = piratz.apply(before, 0, {"action": "reveal"})

    response = play(client_for(anna), game, 0, action="reveal")

    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["version"] == 1
    assert body["state"] == piratz.view(expected, 0)
    assert engine_state(game) == expected


def test_reveal_is_logged_with_the_card(game, anna, bert):
    play(client_for(anna), game, 0, action="reveal")
    log = client_for(bert).get(f"/api/games/{game.id}/moves/").json()
    assert len(log) == 1
    entry = log[0]
    assert entry["number"] == 1 and entry["seat"] == 0
    assert entry["action"] == {"action": "reveal"}
    assert entry["automatic"] is False
    revealed = piratz.view(engine_state(game), None)["face_up"][-1]
    assert entry["revealed"] == revealed
    assert set(entry) == {"number", "seat", "action", "revealed", "automatic", "at"}


def test_pass_buries_and_records_the_burial(game, anna):
    client = client_for(anna)
    state = play(client, game, 0, action="reveal").json()["state"]
    if state["phase"] == "alarm":  # pragma: no cover - seed 7 reveals no rat first
        pytest.skip("seed turned up an alarm")
    card = state["face_up"][0]
    treasure = next(t for t in piratz.TREASURES if t not in card["treasures"])
    response = play(client, game, 1, action="pass", treasure=treasure, bury=card["id"])

    assert response.status_code == 200, response.json()
    assert response.json()["state"]["current_seat"] == 1
    burial = BuriedCard.objects.get(game=game)
    assert (burial.seat, burial.card, burial.round, burial.move.number) == (0, card["id"], 1, 2)


def test_deadline_renews_when_the_turn_passes_not_on_reveal(game, anna):
    client = client_for(anna)
    first = game.deadline
    after_reveal = play(client, game, 0, action="reveal").json()
    game.refresh_from_db()
    assert game.deadline == first
    legal = after_reveal["state"]["legal_actions"]
    ending = next(a for a in legal if a["action"] in ("end_turn", "resolve_alarm"))
    play(client, game, 1, **ending)
    game.refresh_from_db()
    assert game.deadline > first
    assert game.current_seat == 1


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"action": "reveal"}, "invalid"),  # no version
        ({"version": "0", "action": "reveal"}, "invalid"),
        ({"version": True, "action": "reveal"}, "invalid"),
        ({"version": -1, "action": "reveal"}, "invalid"),
        ({"version": 0}, "invalid"),
        ({"version": 0, "action": "dance"}, "invalid"),
        ({"version": 0, "action": "reveal", "extra": 1}, "invalid"),
        ({"version": 0, "action": "pass", "treasure": "coins"}, "invalid"),  # bury missing
        ({"version": 0, "action": "pass", "treasure": "coins", "bury": True}, "invalid"),
        ({"version": 0, "action": "pass", "treasure": "coins", "bury": "12"}, "invalid"),
        ({"version": 0, "action": "pass", "treasure": "gold", "bury": None}, "invalid"),
        ({"version": 0, "action": "end_turn"}, "illegal_action"),  # wrong phase
        ({"version": 0, "action": "pass", "treasure": "coins", "bury": 12}, "illegal_action"),
    ],
)
def test_bad_moves_are_refused_and_change_nothing(game, anna, body, code):
    before = engine_state(game)
    response = client_for(anna).post(f"/api/games/{game.id}/moves/", body, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == code
    assert response.json()["detail"]
    assert engine_state(game) == before
    assert game.version == 0
    assert not Move.objects.exists()


# --- The platform's refusals, on the toy game ---------------------------------------------


def mark(cell: int) -> dict:
    return {"action": "mark", "cell": cell}


def test_body_must_be_an_object(toy_game, anna):
    response = client_for(anna).post(f"/api/games/{toy_game.id}/moves/", [1, 2], format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_malformed_json_is_invalid(toy_game, anna):
    response = client_for(anna).post(
        f"/api/games/{toy_game.id}/moves/", "{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_other_player_cannot_move(toy_game, bert):
    response = play(client_for(bert), toy_game, 0, **mark(1))
    assert response.status_code == 409
    assert response.json()["code"] == "not_your_turn"
    assert not Move.objects.exists()


def test_stale_version_is_refused(toy_game, anna, bert):
    play(client_for(anna), toy_game, 0, **mark(1))
    response = play(client_for(bert), toy_game, 0, **mark(2))
    assert response.status_code == 409
    assert response.json()["code"] == "stale_version"
    assert Move.objects.count() == 1


def test_future_version_is_stale_too(toy_game, anna):
    response = play(client_for(anna), toy_game, 5, **mark(1))
    assert response.status_code == 409
    assert response.json()["code"] == "stale_version"


def test_a_repeated_move_is_applied_once(toy_game, anna):
    client = client_for(anna)
    first = play(client, toy_game, 0, **mark(1))
    again = play(client, toy_game, 0, **mark(1))
    assert first.status_code == again.status_code == 200
    assert again.json()["version"] == 1
    assert Move.objects.count() == 1


def test_outsider_and_anonymous_cannot_move(toy_game, outsider):
    assert play(client_for(outsider), toy_game, 0, **mark(1)).status_code == 404
    assert play(client_for(None), toy_game, 0, **mark(1)).status_code == 401
    assert not Move.objects.exists()


def test_staff_cannot_move_for_a_player(toy_game, moderator):
    response = play(client_for(moderator), toy_game, 0, **mark(1))
    assert response.status_code == 403
    assert response.json()["code"] == "not_a_player"
    assert not Move.objects.exists()


def test_no_moves_in_a_game_that_is_not_active(toy_games, anna, bert):
    game = start_toy_game([anna, bert])
    Game.objects.filter(id=game.id).update(status="aborted")
    response = play(client_for(anna), game, 0, **mark(1))
    assert response.status_code == 409
    assert response.json()["code"] == "game_not_active"


def test_log_is_for_players_and_staff_only(toy_game, anna, outsider, moderator):
    play(client_for(anna), toy_game, 0, **toy_move(toy_game))
    assert client_for(outsider).get(f"/api/games/{toy_game.id}/moves/").status_code == 404
    assert len(client_for(moderator).get(f"/api/games/{toy_game.id}/moves/").json()) == 1


def test_each_action_name_belongs_to_one_game_so_the_body_chooses_its_serializer():
    """The move view reads a body by its ``action`` without reading the game first."""

    from games.api.moves import (
        AnyGameMoveSerializer,
        action_names,
        move_serializer_for_action,
        move_serializers,
    )

    serializers = move_serializers()
    assert set(serializers) == {"piratz", "rattenscharf"}
    names = [action for s in serializers.values() for action in action_names(s)]
    assert len(names) == len(set(names))
    for game, serializer in serializers.items():
        for action in action_names(serializer):
            assert move_serializer_for_action(action) is serializers[game]
    for unknown in ("teleport", None, 3, ["place"]):
        assert move_serializer_for_action(unknown) is AnyGameMoveSerializer


@pytest.mark.parametrize("zone", ["UTC", "Europe/Berlin"])
def test_each_log_entry_is_written_as_drfs_own_fields_would(game, anna, bert, zone, settings):
    # MoveLogSerializer writes an entry without DRF's generic field loop (a log holds
    # hundreds): it must say exactly what that loop says, full and reduced entries alike.
    from rest_framework import serializers

    from games.api.serializers import MoveLogSerializer

    settings.TIME_ZONE = zone
    play(client_for(anna), game, 0, action="reveal")
    game.refresh_from_db()
    entries = [move.public_entry(game.rules) for move in game.moves.all()]
    entries += [move.public_entry(game.rules, reduced=True) for move in game.moves.all()]
    entries.append({**entries[0], "at": entries[0]["at"].replace(microsecond=0)})
    written = MoveLogSerializer(entries, many=True).data
    generic = MoveLogSerializer()
    assert written == [serializers.Serializer.to_representation(generic, e) for e in entries]
    assert [list(entry) for entry in written] == [list(generic.fields)] * len(entries)
