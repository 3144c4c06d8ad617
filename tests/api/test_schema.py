"""The OpenAPI schema says what the API does: errors, nullability, strict bodies, enums, auth.

Whether the API keeps these promises is checked by schemathesis against a running server
(tests/conformance/run.py, in CI; docs/api.md "Conformance").
"""

import itertools
import json
import random

import jsonschema
import pytest
from django.core.management import call_command

from games.catalogue import kinds as available_games
from games.catalogue import rules_for as get_rules
from games.kinds.piratz import rules as piratz
from games.kinds.piratz.api import PIRATZ_ACTION_FIELDS
from games.models import Game
from tests.factories import client_for

pytestmark = pytest.mark.django_db

METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture(scope="module")
def served_schema(django_db_blocker) -> bytes:
    """/api/schema/'s body, asked once per module: generating it takes half a second, and
    nothing these tests change (no setting, no row) changes it."""
    with django_db_blocker.unblock():
        response = client_for(None).get(
            "/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
        )
    assert response.status_code == 200
    return response.content


@pytest.fixture
def openapi(served_schema) -> dict:
    """The schema as /api/schema/ serves it, as plain JSON data (a fresh copy each test)."""
    return json.loads(served_schema)


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
            # A game's own pages are open for a public game; one nobody may watch asks an
            # anonymous caller to sign in, as before public games (games.watching).
            asks_to_sign_in = path.startswith("/api/games/{game_id}/")
            assert ("401" in operation["responses"]) == asks_to_sign_in, (method, path)
        else:
            assert "401" in operation["responses"], (method, path)
    assert open_to_anyone == {
        ("post", "/api/auth/login-link/"),
        # Watching public games (docs/api.md "Watching games"): anyone, signed in or not.
        ("get", "/api/games/public/"),
        ("get", "/api/games/{game_id}/"),
        ("get", "/api/games/{game_id}/moves/"),
        ("get", "/api/games/{game_id}/messages/"),
    }


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


def test_state_is_one_game_view_or_null(openapi):
    """A game's ``state`` is a union of the games' views, discriminated on their ``game``."""
    components = openapi["components"]["schemas"]
    state = components["Game"]["properties"]["state"]
    assert state["nullable"] is True
    union = components[state["allOf"][0]["$ref"].rsplit("/", 1)[1]]
    mapping = union["discriminator"]["mapping"]
    assert union["discriminator"]["propertyName"] == "game"
    assert set(mapping) == set(available_games())
    assert [ref["$ref"] for ref in union["oneOf"]] == list(mapping.values())
    for game, ref in mapping.items():
        table = components[ref.rsplit("/", 1)[1]]
        enum = components[table["properties"]["game"]["$ref"].rsplit("/", 1)[1]]
        assert enum["enum"] == [game]


def test_revealed_is_a_card_a_hand_of_strips_or_null(openapi):
    components = openapi["components"]["schemas"]
    revealed = components["MoveLog"]["properties"]["revealed"]
    assert revealed["nullable"] is True
    union = components[revealed["allOf"][0]["$ref"].rsplit("/", 1)[1]]
    assert union["oneOf"] == [
        {"$ref": "#/components/schemas/Card"},
        {"type": "array", "items": {"$ref": "#/components/schemas/Strip"}},
    ]


def test_request_bodies_reject_unknown_fields(openapi):
    components = openapi["components"]["schemas"]
    bodies = set()
    for _path, _method, operation in operations(openapi):
        if "requestBody" in operation:
            schema = operation["requestBody"]["content"]["application/json"]["schema"]
            bodies.add(schema["$ref"].rsplit("/", 1)[1])
    assert {"GameCreateRequest", "MoveRequest", "LoginLinkRequest"} <= bodies
    for name in bodies:
        # A union (a move: one shape per action; a new game: one per game) rejects them in
        # each of its shapes.
        members = [ref["$ref"].rsplit("/", 1)[1] for ref in components[name].get("oneOf", [])]
        for member in members or [name]:
            assert components[member].get("additionalProperties") is False, member


def ref_name(schema: dict) -> str:
    """The component a ``$ref`` (or a one-item ``allOf`` around one) names."""
    ref = schema["$ref"] if "$ref" in schema else schema["allOf"][0]["$ref"]
    return ref.rsplit("/", 1)[1]


def test_move_is_one_shape_per_action_told_apart_by_its_name(openapi):
    components = openapi["components"]["schemas"]
    move = components["MoveRequest"]
    assert move["discriminator"]["propertyName"] == "action"
    mapping = move["discriminator"]["mapping"]
    piratz_moves = {
        action: "#/components/schemas/Piratz"
        + "".join(part.capitalize() for part in action.split("_"))
        + "MoveRequest"
        for action in PIRATZ_ACTION_FIELDS
    }
    rattenscharf_move = "#/components/schemas/RattenscharfMoveRequest"
    assert mapping == {**piratz_moves, "place": rattenscharf_move}
    assert move["oneOf"] == [{"$ref": ref} for ref in mapping.values()]


def test_each_piratz_action_takes_exactly_its_own_fields(openapi):
    """docs/api.md "The engine's entry points": an action's shape names its fields, all required."""
    components = openapi["components"]["schemas"]
    mapping = components["MoveRequest"]["discriminator"]["mapping"]
    for action, fields in PIRATZ_ACTION_FIELDS.items():
        move = components[mapping[action].rsplit("/", 1)[1]]
        assert set(move["properties"]) == {"version", "action", *fields}, action
        assert set(move["required"]) == {"version", "action", *fields}, action
        assert move["additionalProperties"] is False
        assert components[ref_name(move["properties"]["action"])]["enum"] == [action]
    passing = components[mapping["pass"].rsplit("/", 1)[1]]["properties"]
    assert components[ref_name(passing["treasure"])]["enum"] == list(piratz.TREASURES)
    assert (passing["bury"]["minimum"], passing["bury"]["maximum"]) == (1, 50)
    assert passing["bury"]["nullable"] is True
    alarm = components[mapping["resolve_alarm"].rsplit("/", 1)[1]]["properties"]
    assert (alarm["keep"]["minimum"], alarm["keep"]["maximum"]) == (1, 50)
    assert "nullable" not in alarm["keep"]


def test_a_new_game_is_one_shape_per_game(openapi):
    """Each game's seats (PLAYER_COUNTS), bots (BOT_LEVELS) and options (OPTIONS)."""
    components = openapi["components"]["schemas"]
    create = components["GameCreateRequest"]
    assert create["discriminator"]["propertyName"] == "game"
    mapping = create["discriminator"]["mapping"]
    assert set(mapping) == set(available_games())
    for game, ref in mapping.items():
        rules = get_rules(game)
        shape = components[ref.rsplit("/", 1)[1]]
        assert set(shape["required"]) == {"game", "players"}
        assert components[ref_name(shape["properties"]["game"])]["enum"] == [game]
        players = shape["properties"]["players"]
        assert (players["minItems"], players["maxItems"]) == (
            min(rules.PLAYER_COUNTS),
            max(rules.PLAYER_COUNTS),
        )
        assert players["uniqueItems"] is True
        address, bot, page = players["items"]["anyOf"]
        assert address["format"] == "email"
        assert bot["pattern"] == "^bot:(" + "|".join(rules.BOT_LEVELS) + ")$"
        assert page["pattern"].startswith("^player:")
        blind = shape["properties"]["blind"]
        if "blind" in rules.OPTIONS:
            assert blind["type"] == "boolean"
        else:
            assert components[ref_name(blind)]["enum"] == [False]


def test_rattenscharf_move_schema_is_r28s_placement(openapi):
    components = openapi["components"]["schemas"]
    move = components["RattenscharfMoveRequest"]
    assert set(move["required"]) == {"version", "action", "strip", "x", "y", "orientation", "flip"}
    fields = move["properties"]
    assert components[fields["action"]["$ref"].rsplit("/", 1)[1]]["enum"] == ["place"]
    assert (fields["strip"]["minimum"], fields["strip"]["maximum"]) == (1, 42)
    for axis in ("x", "y"):
        assert (fields[axis]["minimum"], fields[axis]["maximum"]) == (-15, 15)
        assert fields[axis]["type"] == "integer"
    orientation = fields["orientation"]["allOf"][0]["$ref"].rsplit("/", 1)[1]
    assert components[orientation]["enum"] == ["h", "v"]
    assert fields["flip"]["type"] == "boolean"


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
    """OpenAPI links (core.api.schema.add_links), which schemathesis's stateful phase follows:
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


# --- The documented views are the engines' views -----------------------------------------------


def json_schema(openapi: dict, component: str) -> dict:
    """The OpenAPI component as JSON Schema (2020-12): ``nullable`` becomes ``null`` allowed,
    references point into ``$defs``."""

    def convert(node):
        if isinstance(node, list):
            return [convert(item) for item in node]
        if not isinstance(node, dict):
            return node
        out = {
            key: convert(value)
            for key, value in node.items()
            if key not in ("discriminator", "readOnly", "nullable")
        }
        if "$ref" in out:
            out["$ref"] = out["$ref"].replace("#/components/schemas/", "#/$defs/")
        return {"anyOf": [out, {"type": "null"}]} if node.get("nullable") else out

    components = openapi["components"]["schemas"]
    return {
        "$defs": {name: convert(schema) for name, schema in components.items()},
        "$ref": f"#/$defs/{component}",
    }


def sample_games():
    """(rules, game name, blind, states, moves): whole seeded playouts, every state along the
    way and each move between two of them as (seat, action)."""
    rng = random.Random(3)
    for name, players, options in [
        ("piratz", 3, {"blind": False}),
        ("piratz", 2, {"blind": True}),
        ("rattenscharf", 2, {}),
    ]:
        rules = get_rules(name)
        state = rules.new_game(players, seed=4, **options)
        states, moves = [state], []
        while not rules.is_finished(state):
            seat = rules.current_seat(state)
            action = rng.choice(rules.legal_actions(state, seat))
            state = rules.apply(state, seat, action)
            states.append(state)
            moves.append((seat, action))
        yield rules, name, options.get("blind", False), states, moves


def test_every_view_of_whole_games_fits_the_documented_state(openapi):
    """Every view the engines give (each seat, spectators, blind, finished, aborted) is valid
    against the schema's ``GameState`` and picks its own game's table; every move's
    ``revealed`` against ``Revealed``."""
    state_schema = jsonschema.Draft202012Validator(json_schema(openapi, "GameState"))
    revealed_schema = jsonschema.Draft202012Validator(json_schema(openapi, "Revealed"))
    tables = {name: json_schema(openapi, f"{name.capitalize()}Table") for name in available_games()}
    checked = revealed_checked = 0
    for rules, name, blind, states, moves in sample_games():
        other = jsonschema.Draft202012Validator(
            tables["rattenscharf" if name == "piratz" else "piratz"]
        )
        for number, state in enumerate(states):
            if number % 7 and not rules.is_finished(state):
                continue  # a sample of the middle; every start and end
            for seat in (None, 0, 1):
                view = rules.view(state, seat)
                state_schema.validate(view)
                assert not other.is_valid(view), "one game's view fits the other's table"
                checked += 1
            aborted = Game(game=name, blind=blind, status="aborted", state=rules.dump(state))
            state_schema.validate(aborted.table_view(0))
        for (before, after), (seat, action) in zip(itertools.pairwise(states), moves, strict=True):
            revealed = rules.move_effects(before, after, seat, action)["revealed_ids"]
            revealed_schema.validate(rules.public_revealed(revealed))
            revealed_checked += revealed is not None
    assert checked > 50 and revealed_checked > 20


# --- The documented request shapes are the bodies the API takes --------------------------------


def _piratz_move_bodies():
    """Piratz moves well- and ill-formed: every action with every set of the other fields,
    each with good and bad values."""
    values = {
        "treasure": ["coins", "gold", 3],
        "bury": [12, None, 0, 51, "12"],
        "keep": [5, None, 50, True],
    }
    names = list(values)
    for action in PIRATZ_ACTION_FIELDS:
        for size in range(len(names) + 1):
            for chosen in itertools.combinations(names, size):
                for picked in itertools.product(*(values[name] for name in chosen)):
                    yield {"version": 3, "action": action, **dict(zip(chosen, picked, strict=True))}
    yield {"version": -1, "action": "reveal"}
    yield {"version": True, "action": "reveal"}
    yield {"action": "reveal"}
    yield {"version": 3, "action": "reveal", "colour": "red"}


def test_the_move_schema_takes_the_piratz_moves_the_api_takes(openapi):
    """A Piratz move fits the documented ``MoveRequest`` exactly when the serializer that
    reads it accepts it: the per-action shapes are neither looser nor stricter."""
    from games.api.moves import move_serializer_for_action

    schema = jsonschema.Draft202012Validator(json_schema(openapi, "MoveRequest"))
    checked = 0
    for body in _piratz_move_bodies():
        accepted = move_serializer_for_action(body.get("action"))(data=body).is_valid()
        assert schema.is_valid(body) == accepted, body
        checked += accepted
    assert checked == 8  # reveal, end_turn, 2 passes, 4 alarms


def test_the_new_game_schema_takes_the_games_the_api_creates(openapi, anna, bert, settings):
    """A new game (the caller among the players, distinct addresses) fits the documented
    ``GameCreateRequest`` exactly when the API creates it: each game's seat count, bots and
    options as the schema states them."""
    settings.GAMES_PER_USER_PER_DAY = settings.INVITATIONS_PER_USER_PER_DAY = 1000
    settings.PENDING_INVITATIONS_PER_ADDRESS = 1000
    schema = jsonschema.Draft202012Validator(
        json_schema(openapi, "GameCreateRequest"), format_checker=jsonschema.FormatChecker()
    )
    others = ["bert@example.com", "carla@example.com", "dirk@example.com", "emil@example.com"]
    client = client_for(anna)
    created = 0
    for game in available_games():
        for count in range(1, 6):
            for bot in (None, "bot:careful", "bot:genius"):
                for blind in (None, False, True):
                    players = [anna.email, *others[: count - 1]]
                    if bot and count > 1:
                        players[-1] = bot
                    body = {"game": game, "players": players}
                    if blind is not None:
                        body["blind"] = blind
                    answer = client.post("/api/games/", body, format="json")
                    assert answer.status_code in (201, 400), answer.content
                    assert schema.is_valid(body) == (answer.status_code == 201), (body, answer)
                    created += answer.status_code == 201
    assert created > 10


def test_a_body_is_required_exactly_where_leaving_it_out_is_invalid(openapi, game, bert):
    """Each operation that reads a body is sent none, by a seated player: the schema marks
    the body required exactly where the API answers that with 400 ``invalid``."""
    client = client_for(bert)
    required = set()
    for path, method, operation in operations(openapi):
        if "requestBody" not in operation:
            continue
        url = path.replace("{game_id}", str(game.id))
        answer = client.generic(method.upper(), url)
        refused = answer.status_code == 400 and answer.json()["code"] == "invalid"
        assert operation["requestBody"].get("required", False) == refused, (method, path, answer)
        if refused:
            required.add((method, path))
    assert {
        ("post", "/api/games/"),
        ("post", "/api/games/{game_id}/moves/"),
        ("post", "/api/auth/login-link/"),
    } <= required
    assert ("patch", "/api/me/settings/") not in required  # every field is optional


def test_a_move_without_a_body_is_400_naming_what_it_needs(game, anna):
    answer = client_for(anna).generic("POST", f"/api/games/{game.id}/moves/")
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "invalid"
    assert set(body["fields"]) == {"version", "action"}
    assert "version: This field is required." in body["detail"]
    game.refresh_from_db()
    assert game.version == 0


# --- Every shape the service enforces, the schema states (issue 32, item 14) ------------------


def test_a_null_body_is_refused_wherever_the_schema_wants_an_object(openapi, game, anna):
    """No request body is ``nullable`` in the schema, so ``null`` is refused everywhere, as
    a list or a string is: ``400 invalid``, and nothing changes (pause took it once)."""
    client = client_for(anna)  # the host, seated
    checked = 0
    for path, method, operation in operations(openapi):
        if "requestBody" not in operation or "{" in path.replace("{game_id}", ""):
            continue
        for media in operation["requestBody"]["content"].values():
            assert "nullable" not in media["schema"], (method, path)
        url = path.replace("{game_id}", str(game.id))
        answer = client.generic(method.upper(), url, "null", content_type="application/json")
        assert (answer.status_code, answer.json()["code"]) == (400, "invalid"), (method, path)
        checked += 1
    game.refresh_from_db()
    assert game.version == 0 and game.paused_at is None
    assert checked >= 10


@pytest.mark.parametrize(
    "time",
    # "1\uff12:00": a fullwidth digit, which Python's \d (and strptime) would take.
    ["00:00", "07:05", "23:59", "7:05", "7:5", "24:00", "12:60", "07:05:00", "1\uff12:00"],
)
def test_quiet_hours_take_exactly_the_documented_hh_mm(openapi, anna, time):
    """The schema says ``HH:MM`` by a pattern (not RFC 3339's ``time``), and the API
    takes a time exactly when it fits it."""
    schema = jsonschema.Draft202012Validator(json_schema(openapi, "QuietHoursRequest"))
    body = {"start": time, "end": "06:30"}
    answer = client_for(anna).patch("/api/me/settings/", {"quiet_hours": body}, format="json")
    assert answer.status_code in (200, 400), answer.content
    assert schema.is_valid(body) == (answer.status_code == 200), answer.content
    if answer.status_code == 200:
        assert answer.json()["quiet_hours"] == {"start": time, "end": "06:30"}


def test_a_league_takes_exactly_the_player_lists_the_schema_allows(openapi, anna, settings):
    """At least 2, each once, of a game the catalogue has: the schema says so, and the
    API creates a league exactly when the body fits it (addresses, round robin)."""
    settings.LEAGUES_PER_USER_PER_DAY = 100
    schema = jsonschema.Draft202012Validator(json_schema(openapi, "LeagueCreateRequest"))
    others = ["bert@example.com", "carla@example.com"]
    bodies = [
        {"name": "L", "players": []},
        {"name": "L", "players": [anna.email]},
        {"name": "L", "players": [anna.email, others[0]]},
        {"name": "L", "players": [others[0], others[0]]},
        {"name": "L", "players": [anna.email, *others]},
        {"name": "L", "players": [anna.email, others[0]], "game": "chess"},
        {"name": "L", "players": [anna.email, others[0]], "game": "rattenscharf"},
    ]
    created = 0
    for body in bodies:
        answer = client_for(anna).post("/api/leagues/", body, format="json")
        assert answer.status_code in (201, 400), answer.content
        assert schema.is_valid(body) == (answer.status_code == 201), (body, answer.content)
        created += answer.status_code == 201
    assert created == 3


# Each operation whose refusals depend on the current state of what it acts on (done
# already, nothing to undo, a limit of things reached) answers them 409 ``conflict``.
STATE_REFUSALS = [
    ("post", "/api/games/{game_id}/resign/"),
    ("post", "/api/games/{game_id}/resume/"),
    ("post", "/api/games/{game_id}/extend/"),
    ("post", "/api/games/{game_id}/take-back/"),
    ("post", "/api/games/{game_id}/webhooks/"),
    ("post", "/api/me/api-keys/"),
    ("post", "/api/me/push-subscriptions/"),
    ("post", "/api/me/vacations/"),
    ("delete", "/api/me/vacations/{vacation_id}/"),
]


@pytest.mark.parametrize(("method", "path"), STATE_REFUSALS)
def test_state_refusals_are_documented_as_409_conflict(openapi, method, path):
    responses = openapi["paths"][path][method]["responses"]
    assert "`conflict`" in responses["409"]["description"], (method, path)
    assert "conflict" not in responses.get("400", {}).get("description", ""), (method, path)
