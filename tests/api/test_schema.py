"""The OpenAPI schema says what the API does: errors, nullability, strict bodies, enums, auth.

Whether the API keeps these promises is checked by schemathesis against a running server
(tests/conformance/run.py, in CI; README "Conformance").
"""

import json

import pytest
from django.core.management import call_command

from games.api.serializers import PIRATZ_ACTION_FIELDS
from games.rules import piratz
from tests.factories import client_for

pytestmark = pytest.mark.django_db

METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture
def openapi(db) -> dict:
    """The schema as /api/schema/ serves it, as plain JSON data."""
    response = client_for(None).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return json.loads(response.content)


def operations(openapi: dict):
    for path, item in openapi["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield path, method, operation


def test_every_operation_documents_404_and_429(openapi):
    for path, method, operation in operations(openapi):
        assert {"404", "429"} <= set(operation["responses"]), (method, path)


def test_every_operation_needing_credentials_documents_401(openapi):
    open_to_anyone = set()
    for path, method, operation in operations(openapi):
        if {} in operation.get("security", []):
            open_to_anyone.add((method, path))
            assert "401" not in operation["responses"], (method, path)
        else:
            assert "401" in operation["responses"], (method, path)
    assert open_to_anyone == {("post", "/api/auth/login-link/")}


def test_operations_reading_a_body_document_400_and_413(openapi):
    for path, method, operation in operations(openapi):
        if "requestBody" in operation:
            assert {"400", "413"} <= set(operation["responses"]), (method, path)


def test_error_answers_use_the_error_shape(openapi):
    components = openapi["components"]["schemas"]
    for path, method, operation in operations(openapi):
        for status, answer in operation["responses"].items():
            if status >= "400":
                ref = answer["content"]["application/json"]["schema"]["$ref"]
                error = components[ref.rsplit("/", 1)[1]]
                assert {"code", "detail"} <= set(error["properties"]), (method, path, status)


def test_a_staff_move_documents_403(openapi):
    responses = openapi["paths"]["/api/games/{game_id}/moves/"]["post"]["responses"]
    assert "403" in responses and "not_a_player" in responses["403"]["description"]


def test_state_is_nullable(openapi):
    state = openapi["components"]["schemas"]["Game"]["properties"]["state"]
    assert state["nullable"] is True and state["type"] == "object"


def test_request_bodies_reject_unknown_fields(openapi):
    components = openapi["components"]["schemas"]
    bodies = set()
    for _path, _method, operation in operations(openapi):
        if "requestBody" in operation:
            schema = operation["requestBody"]["content"]["application/json"]["schema"]
            bodies.add(schema["$ref"].rsplit("/", 1)[1])
    assert {"GameCreateRequest", "MoveRequest", "LoginLinkRequest"} <= bodies
    for name in bodies:
        assert components[name].get("additionalProperties") is False, name


def test_move_schema_names_every_action_and_treasure(openapi):
    components = openapi["components"]["schemas"]
    move = components["MoveRequest"]["properties"]
    action = components[move["action"]["$ref"].rsplit("/", 1)[1]]
    assert action["enum"] == list(PIRATZ_ACTION_FIELDS)
    treasure = components[move["treasure"]["allOf"][0]["$ref"].rsplit("/", 1)[1]]
    assert treasure["enum"] == list(piratz.TREASURES)
    assert (move["bury"]["minimum"], move["bury"]["maximum"]) == (1, 50)
    assert move["bury"]["nullable"] is True
    assert components["GameCreateRequest"]["required"] == ["game", "players"]


def test_both_ways_of_sending_the_key_are_documented(openapi):
    schemes = openapi["components"]["securitySchemes"]
    assert schemes["bearerAuth"] == {**schemes["bearerAuth"], "type": "http", "scheme": "bearer"}
    assert schemes["tokenAuth"]["in"] == "header"
    games = openapi["paths"]["/api/games/"]["get"]["security"]
    assert {"tokenAuth": []} in games and {"bearerAuth": []} in games


def test_schema_generates_without_warnings(tmp_path):
    """``manage.py spectacular --validate --fail-on-warn``: valid OpenAPI, and nothing
    drf-spectacular had to guess (an unnamed enum collision, an untyped field)."""
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yaml"))


def test_standing_order_names_treasure_types_at_most_once(openapi):
    components = openapi["components"]["schemas"]
    field = components["StandingOrderRequestRequest"]["properties"]["standing_order"]
    assert field["uniqueItems"] is True
    assert field["items"] == {"$ref": "#/components/schemas/TreasureEnum"}


def test_links_chain_a_created_game_to_its_moves(openapi):
    """OpenAPI links (games.api.schema.add_links), which schemathesis's stateful phase follows:
    the created game's id, and the version a game answer shows, feed the next move."""
    paths = openapi["paths"]
    created = paths["/api/games/"]["post"]["responses"]["201"]["links"]
    assert created["PlayMove"] == {
        "operationId": "games_moves_create",
        "parameters": {"game_id": "$response.body#/id"},
        "requestBody": {"version": "$response.body#/version"},
    }
    moved = paths["/api/games/{game_id}/moves/"]["post"]["responses"]["200"]["links"]
    assert moved["PlayNextMove"]["requestBody"] == {"version": "$response.body#/version"}
    operation_ids = {op["operationId"] for _p, _m, op in operations(openapi)}
    for _path, _method, operation in operations(openapi):
        for answer in operation["responses"].values():
            for link in answer.get("links", {}).values():
                assert link["operationId"] in operation_ids
