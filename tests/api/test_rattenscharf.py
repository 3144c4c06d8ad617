"""Rattenscharf through the REST API (docs/api.md "Two games: Piratz and Rattenscharf",
R27-R33): creating a game, whole games played from the answers' legal actions, the move body
and its refusals, the log's revealed hands, standing orders and the verification endpoint."""

import random

import pytest
from django.utils import translation

from games.kinds.piratz import rules as piratz
from games.kinds.rattenscharf import rules as rattenscharf
from games.kinds.rattenscharf.rules.strips import STRIP_IDS
from games.models import Game, Move
from tests.factories import client_for, start_game
from tests.rules.rattenscharf.helpers import GAME_R, order

from .playthrough import play_over_http
from .secrets_scan import assert_no_secrets

pytestmark = pytest.mark.django_db

# docs/rules/rattenscharf.md, Example 5 (game R): red lays a rat, green ends its turn 4 with
# more green rats visible than the limit and loses by rats (R22, R23).
EXAMPLE_5 = [
    (0, {"strip": 17, "x": 2, "y": 0, "orientation": "h", "flip": False}),
    (1, {"strip": 20, "x": -1, "y": 1, "orientation": "h", "flip": False}),
    (1, {"strip": 18, "x": 2, "y": 1, "orientation": "h", "flip": False}),
    (0, {"strip": 24, "x": -1, "y": 2, "orientation": "h", "flip": False}),
    (0, {"strip": 33, "x": 1, "y": 0, "orientation": "h", "flip": False}),
    (1, {"strip": 41, "x": 2, "y": 2, "orientation": "h", "flip": False}),
    (1, {"strip": 42, "x": 5, "y": 0, "orientation": "v", "flip": False}),
]


# Example 5's first placement, legal in the duel's game at version 0; ``spoiled`` changes it.
LEGAL_BODY = {"version": 0, "action": "place", **EXAMPLE_5[0][1]}


def spoiled(**changes) -> dict:
    """``LEGAL_BODY`` with ``changes``; a change to None leaves that field out."""
    body = {**LEGAL_BODY, **changes}
    return {key: value for key, value in body.items() if value is not None}


def place(client, game, version, **fields):
    return client.post(
        f"/api/games/{game.id}/moves/",
        {"version": version, "action": "place", **fields},
        format="json",
    )


@pytest.fixture
def duel(anna, bert) -> Game:
    """Anna (red, seat 0, to move) and Bert (green) in Example 5's game R."""
    return start_game([anna, bert], game="rattenscharf", order=order(*GAME_R))


# --- Creating a game (R27) ---------------------------------------------------------------------


def test_creating_a_game_for_two_starts_rattenscharf(anna, bert):
    client = client_for(anna)
    body = {"game": "rattenscharf", "players": [anna.email, bert.email]}
    created = client.post("/api/games/", body, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["game"] == "rattenscharf" and created.json()["status"] == "invited"
    game_id = created.json()["id"]
    accepted = client_for(bert).post(f"/api/games/{game_id}/accept/", format="json").json()
    assert accepted["status"] == "active" and accepted["version"] == 0
    state = accepted["state"]
    assert state["game"] == "rattenscharf" and state["turn"] == 1 and state["seat"] == 1
    assert state["current_seat"] == 0 and len(state["hand"]) == 1 and state["legal_actions"] == []
    mine = client.get(f"/api/games/{game_id}/").json()["state"]
    assert mine["legal_actions"] == rattenscharf.legal_actions(
        rattenscharf.load(Game.objects.get(id=game_id).state), 0
    )
    assert mine["legal_actions"], "seat 0 lays the first strip"


def test_three_players_are_refused_naming_the_count(anna, bert, carla):
    body = {"game": "rattenscharf", "players": [anna.email, bert.email, carla.email]}
    response = client_for(anna).post("/api/games/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert response.json()["detail"] == "A game of Rattenscharf needs 2 players."
    assert not Game.objects.exists()


def test_blind_mode_is_refused(anna, bert):
    body = {"game": "rattenscharf", "players": [anna.email, bert.email], "blind": True}
    response = client_for(anna).post("/api/games/", body, format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert "no blind mode" in response.json()["detail"]
    assert not Game.objects.exists()


# --- Whole games -------------------------------------------------------------------------------


def test_whole_game_over_http_from_the_answers_legal_actions(anna, bert):
    """Each move is chosen from the legal actions the previous answer showed its player; every
    answer is the engine's view, the log grows by one per move, nothing shows the pile."""
    game = start_game([anna, bert], seed=5, game="rattenscharf")
    clients = [client_for(anna), client_for(bert)]
    played = 0
    for move in play_over_http(game, clients, seed=5, from_answers=True):
        played += 1
        body = move.response.json()
        assert body["version"] == move.version
        assert body["state"] == rattenscharf.view(move.after, move.seat)
        assert_no_secrets(move.response.content.decode(), move.after)
        watcher = clients[1 - move.seat]
        other = watcher.get(f"/api/games/{game.id}/")
        assert other.json()["state"] == rattenscharf.view(move.after, 1 - move.seat)
        log = watcher.get(f"/api/games/{game.id}/moves/")
        assert len(log.json()) == move.version
        for answer in (other, log, watcher.get("/api/games/")):
            assert_no_secrets(answer.content.decode(), move.after)
    game.refresh_from_db()
    assert game.status == "finished" and game.deadline is None and game.current_seat is None
    assert played == game.version == Move.objects.filter(game=game).count()
    final = clients[0].get(f"/api/games/{game.id}/").json()
    assert final["state"]["status"] == "finished" and final["state"]["result"]["winners"]
    assert final["state"]["result"] == game.result


def test_a_careful_game_runs_to_the_complete_end(anna, bert):
    """R24-R26 through the API: both players play R35's careful choice (rats first), the
    pile runs out, the final layer is scored and the result says ``complete``."""
    game = start_game([anna, bert], seed=1, game="rattenscharf")
    clients = [client_for(anna), client_for(bert)]
    state = rattenscharf.load(Game.objects.get(id=game.id).state)
    answer = clients[0].get(f"/api/games/{game.id}/").json()
    while answer["state"]["status"] == "active":
        seat = answer["state"]["current_seat"]
        if answer["you"] != seat:
            answer = clients[seat].get(f"/api/games/{game.id}/").json()
        action = rattenscharf.timeout_action(state)
        assert action in answer["state"]["legal_actions"]
        response = clients[seat].post(
            f"/api/games/{game.id}/moves/", {"version": answer["version"], **action}, format="json"
        )
        assert response.status_code == 200, response.json()
        answer = response.json()
        state = rattenscharf.apply(state, seat, action)
    result = answer["state"]["result"]
    assert result["reason"] == "complete" and result["rat_loser"] is None
    assert result["final_scoring"], "the final layer scored something"
    assert answer["version"] == len(STRIP_IDS)  # every strip laid, one move each
    assert answer["status"] == "finished" and answer["state"] == rattenscharf.view(state, seat)


def test_a_game_lost_to_rats_over_http(duel, anna, bert):
    """Example 5 (R22, R23): green ends turn 4 with too many green rats and loses at once."""
    clients = [client_for(anna), client_for(bert)]
    for version, (seat, fields) in enumerate(EXAMPLE_5):
        response = place(clients[seat], duel, version, **fields)
        assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "finished" and body["deadline"] is None
    result = body["state"]["result"]
    assert (result["reason"], result["rat_loser"], result["winners"]) == ("rats", 1, [0])
    assert result["final_scoring"] == []
    duel.refresh_from_db()
    assert duel.status == "finished" and duel.result == result


# --- The log's revealed hands (R33) ------------------------------------------------------------


def test_log_reveals_the_next_hand_on_moves_that_end_a_turn(duel, anna, bert):
    clients = [client_for(anna), client_for(bert)]
    for version, (seat, fields) in enumerate(EXAMPLE_5[:4]):
        assert place(clients[seat], duel, version, **fields).status_code == 200
    log = clients[1].get(f"/api/games/{duel.id}/moves/").json()
    strips = rattenscharf.STRIPS
    hand = [{"id": s, "fields": list(strips[s])} for s in (20, 18)]
    assert [entry["revealed"] for entry in log] == [
        hand,  # red's turn 1 ended: green's hand
        None,  # green's first strip: the turn goes on
        [{"id": s, "fields": list(strips[s])} for s in (24, 33)],  # red's next hand
        None,
    ]
    assert [entry["automatic"] for entry in log] == [False] * 4
    assert log[0]["action"] == {"action": "place", **EXAMPLE_5[0][1]}


# --- The move body (R28) and its refusals (R30) ------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        spoiled(flip=None),
        spoiled(treasure="coins"),
        spoiled(strip=True),
        spoiled(x="2"),
        spoiled(y=False),
        spoiled(orientation="d"),
        spoiled(flip=0),
        spoiled(strip=0),
        spoiled(strip=43),
        spoiled(x=16),
        spoiled(x=0, y=-16, orientation="v"),
        spoiled(strip=17.0),
        {"version": 0, "action": "reveal"},
        {"version": 0, "action": "pass", "treasure": "coins", "bury": 12},
        spoiled(version="0"),
    ],
)
def test_placements_that_can_never_be_legal_are_invalid(duel, anna, body):
    response = client_for(anna).post(f"/api/games/{duel.id}/moves/", body, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "invalid"
    duel.refresh_from_db()
    assert duel.version == 0 and not Move.objects.exists()


@pytest.mark.parametrize(
    ("fields", "code"),
    [  # Example 2 (game R opens like game A: one strip in hand, the bare table)
        ({"strip": 20, "x": 2, "y": 0, "orientation": "h"}, "not_in_hand"),
        ({"strip": 17, "x": 14, "y": 0, "orientation": "h"}, "off_table"),
        ({"strip": 17, "x": -1, "y": 0, "orientation": "h"}, "exact_cover"),
        ({"strip": 17, "x": -4, "y": -1, "orientation": "h"}, "no_contact"),
        ({"strip": 17, "x": 0, "y": 0, "orientation": "h"}, "gap"),
    ],
)
def test_well_formed_placements_not_legal_now_are_illegal_action(duel, anna, fields, code):
    from games.kinds.rattenscharf.refusals import SENTENCES

    action = {"action": "place", "flip": False, **fields}
    state = rattenscharf.load(duel.state)
    with pytest.raises(rattenscharf.IllegalAction) as refusal:
        rattenscharf.apply(state, 0, action)
    assert refusal.value.code == code
    client = client_for(anna)
    response = client.post(f"/api/games/{duel.id}/moves/", {"version": 0, **action}, format="json")
    assert response.status_code == 400, response.json()
    # In English too the sentence, never the engine's own words (issue 24).
    assert response.json() == {"code": "illegal_action", "detail": str(SENTENCES[code])}
    # In German, the sentence for the engine's code (games.actions.play: per game, per code).
    german = client.post(
        f"/api/games/{duel.id}/moves/",
        {"version": 0, **action},
        format="json",
        HTTP_ACCEPT_LANGUAGE="de",
    ).json()
    with translation.override("de"):
        assert german == {
            "code": "illegal_action",
            "detail": str(SENTENCES[code]),
        }
    assert not Move.objects.exists()


def test_engine_refusals_have_a_sentence_per_code_in_german():
    """Every R30 code the engine can raise for a well-formed move has its own sentence."""
    from games.kinds.rattenscharf.refusals import SENTENCES

    assert set(SENTENCES) == set(rattenscharf.ERROR_CODES)


def test_not_your_turn_is_409(duel, bert):
    response = place(client_for(bert), duel, 0, strip=17, x=2, y=0, orientation="h", flip=False)
    assert response.status_code == 409 and response.json()["code"] == "not_your_turn"


def test_a_placement_in_a_piratz_game_is_invalid(game, anna):
    """Each game reads moves with its own serializer: ``place`` is no Piratz action."""
    response = place(client_for(anna), game, 0, strip=17, x=2, y=0, orientation="h", flip=False)
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert not Move.objects.exists()


def test_a_repeated_placement_is_answered_not_played_twice(duel, anna):
    client = client_for(anna)
    fields = EXAMPLE_5[0][1]
    first = place(client, duel, 0, **fields)
    again = place(client, duel, 0, **fields)
    assert first.status_code == again.status_code == 200
    assert again.json()["version"] == 1 and Move.objects.filter(game=duel).count() == 1


def test_every_legal_placement_of_whole_games_passes_the_serializer():
    """The serializer must never refuse a placement the engine would take."""
    from games.kinds.rattenscharf.api import RattenscharfMoveSerializer

    for seed in (1, 2):
        rng = random.Random(seed)
        state = rattenscharf.new_game(2, seed=seed)
        while not rattenscharf.is_finished(state):
            seat = rattenscharf.current_seat(state)
            legal = rattenscharf.legal_actions(state, seat)
            for action in legal[:: max(1, len(legal) // 20)]:
                serializer = RattenscharfMoveSerializer(data={"version": 5, **action})
                assert serializer.is_valid(), (action, serializer.errors)
                assert serializer.to_action() == action
            state = rattenscharf.apply(state, seat, rng.choice(legal))


# --- Standing orders and verification ----------------------------------------------------------


def test_a_rattenscharf_game_has_no_standing_order(duel, anna):
    client = client_for(anna)
    url = f"/api/games/{duel.id}/standing-order/"
    assert client.get(url).json() == {"standing_order": [], "choices": []}
    refused = client.put(url, {"standing_order": ["coins"]}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"
    assert "no standing orders" in refused.json()["detail"]
    emptied = client.put(url, {"standing_order": []}, format="json")
    assert emptied.status_code == 200 and emptied.json() == {"standing_order": [], "choices": []}


def test_piratz_standing_orders_still_name_treasures(game, anna):
    response = client_for(anna).get(f"/api/games/{game.id}/standing-order/")
    assert response.json()["choices"] == list(piratz.TREASURES)


def test_verification_of_a_game_without_a_checkable_shuffle(duel, anna, bert):
    clients = [client_for(anna), client_for(bert)]
    for version, (seat, fields) in enumerate(EXAMPLE_5):
        place(clients[seat], duel, version, **fields)
    response = clients[0].get(f"/api/games/{duel.id}/verification/")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["rules"] == "rattenscharf" and body["status"] == "finished"
    assert body["commitment"] is None and body["cubes"] is None
    assert body["checks"] == [] and body["verified"] is None


def test_the_engines_malformed_and_game_over_codes_map_to_the_service_codes(duel, anna, bert):
    """R30's ``malformed`` (an action the API serializer would have refused) is ``invalid``;
    ``game_over`` is ``game_not_active``, whoever calls the service."""
    from games import actions

    with pytest.raises(actions.ServiceError) as refusal:
        actions.do_play_move(duel.id, anna, 0, {"action": "place", "strip": 17, "x": True})
    assert refusal.value.code == "invalid"
    assert not Move.objects.exists()
    clients = [client_for(anna), client_for(bert)]
    for version, (seat, fields) in enumerate(EXAMPLE_5):
        place(clients[seat], duel, version, **fields)
    late = place(clients[0], duel, len(EXAMPLE_5), strip=1, x=0, y=5, orientation="h", flip=False)
    assert late.status_code == 409 and late.json()["code"] == "game_not_active"
