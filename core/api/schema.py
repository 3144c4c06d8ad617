"""The OpenAPI schema's generator: drf-spectacular's, plus the errors every endpoint can answer."""

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework.permissions import AllowAny

from core.api.fields import ErrorSerializer

_ERROR_ANSWERS = {
    400: "`invalid`: the body is malformed: not JSON, missing or unknown fields, wrong types "
    "or values that can never be valid.",
    401: "`not_authenticated`: no or bad credentials.",
    404: "`not_found`: nothing at this address (no such game, a malformed id, a page "
    "past the end), or you are neither a player of the game nor staff.",
    413: "`too_large`: the request body is larger than the service accepts.",
    429: "`throttled`: too many requests; try again later.",
    503: "`unavailable`: the database cannot be reached just now; nothing was changed. "
    "Repeat the request after `Retry-After` seconds.",
}


class ApiAutoSchema(AutoSchema):
    """``DEFAULT_SCHEMA_CLASS``: documents the shared error answers on every operation.

    Errors the API's shared machinery gives anywhere are added here once, so no view
    can forget one: 404 (any address), 429 (throttling), 503 (database unreachable),
    401 (unless the view lets anyone in), and where a request body is read 400 and 413.
    A view still documents its own errors (403, 409) with ``extend_schema``; what it
    documents is kept as it is.
    Request bodies of serializers with ``rejects_unknown_fields`` say
    ``additionalProperties: false``, as the API answers 400 to an unknown field.
    """

    # _get_response_bodies and _map_basic_serializer are drf-spectacular's (0.30, pinned)
    # points for this; its public get_response_serializers only sees a view's own list.
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        for status_code, description in _ERROR_ANSWERS.items():
            key = str(status_code)
            if key not in responses and self._may_answer(status_code):
                answer = OpenApiResponse(ErrorSerializer, description=description)
                responses[key] = self._get_response_for_code(answer, key, direction=direction)
        return dict(sorted(responses.items()))

    def _may_answer(self, status_code: int) -> bool:
        if status_code == 401:
            return not all(isinstance(p, AllowAny) for p in self.view.get_permissions())
        if status_code in (400, 413):
            return self.method in ("POST", "PUT", "PATCH") and bool(self.get_request_serializer())
        return True

    def _map_basic_serializer(self, serializer, direction):
        schema = super()._map_basic_serializer(serializer, direction)
        if direction == "request" and getattr(serializer, "rejects_unknown_fields", False):
            schema["additionalProperties"] = False
        return schema


# --- OpenAPI links: which answer feeds which request ------------------------------------------

_GAME_ID = {"game_id": "$response.body#/id"}
_SAME_GAME = {"game_id": "$request.path.game_id"}
# (source operationId, status) -> {link name: (target operationId, parameters, request body)}
# (source operation, status) -> link name -> (target operation, its parameters, its body)
_LINKS: dict[tuple[str, str], dict[str, tuple[str, dict[str, str], dict[str, str] | None]]] = {
    ("games_create", "201"): {
        "GetGame": ("games_retrieve", _GAME_ID, None),
        "AcceptInvitation": ("games_accept_create", _GAME_ID, None),
        "DeclineInvitation": ("games_decline_create", _GAME_ID, None),
        "ListMoves": ("games_moves_list", _GAME_ID, None),
        "PlayMove": ("games_moves_create", _GAME_ID, {"version": "$response.body#/version"}),
        "GetStandingOrder": ("games_standing_order_retrieve", _GAME_ID, None),
        "SetStandingOrder": ("games_standing_order_update", _GAME_ID, None),
        "ListWebhooks": ("games_webhooks_list", _GAME_ID, None),
        "AddWebhook": ("games_webhooks_create", _GAME_ID, None),
    },
    ("games_list", "200"): {
        "GetGame": ("games_retrieve", {"game_id": "$response.body#/results/0/id"}, None),
    },
    ("games_retrieve", "200"): {
        "PlayMove": ("games_moves_create", _GAME_ID, {"version": "$response.body#/version"}),
        "ListMoves": ("games_moves_list", _GAME_ID, None),
        "AcceptInvitation": ("games_accept_create", _GAME_ID, None),
        "DeclineInvitation": ("games_decline_create", _GAME_ID, None),
        # A seat of yours that shows a bot standing in (seats[].bot) is yours to take back.
        "TakeBackSeat": ("games_take_back_create", _GAME_ID, None),
        "ReportGame": ("reports_create", {}, {"game": "$response.body#/id"}),
        "ListMessages": ("games_messages_list", _GAME_ID, None),
        "WriteMessage": ("games_messages_create", _GAME_ID, None),
        "GetNotes": ("games_notes_retrieve", _GAME_ID, None),
        "SaveNotes": ("games_notes_update", _GAME_ID, None),
    },
    ("games_notes_update", "200"): {
        "GetNotes": ("games_notes_retrieve", _SAME_GAME, None),
        "DeleteNotes": ("games_notes_destroy", _SAME_GAME, None),
    },
    ("games_accept_create", "200"): {
        "GetGame": ("games_retrieve", _GAME_ID, None),
        "PlayMove": ("games_moves_create", _GAME_ID, {"version": "$response.body#/version"}),
    },
    ("games_moves_create", "200"): {
        "GetGame": ("games_retrieve", _GAME_ID, None),
        "ListMoves": ("games_moves_list", _GAME_ID, None),
        "PlayNextMove": ("games_moves_create", _GAME_ID, {"version": "$response.body#/version"}),
    },
    ("games_webhooks_create", "201"): {
        "ListWebhooks": ("games_webhooks_list", _SAME_GAME, None),
        "DeleteWebhook": (
            "games_webhooks_destroy",
            {**_SAME_GAME, "webhook_id": "$response.body#/id"},
            None,
        ),
    },
    ("me_vacations_create", "201"): {
        "EndVacation": ("me_vacations_end", {"vacation_id": "$response.body#/id"}, None),
    },
    ("me_api_keys_create", "201"): {
        "DeleteApiKey": ("me_api_keys_destroy", {"key_id": "$response.body#/id"}, None),
    },
    ("quickmatch_create", "201"): {
        "WithdrawSeek": ("quickmatch_destroy", {"seek_id": "$response.body#/id"}, None),
    },
}


def add_links(result, generator, request, public):
    """drf-spectacular post-processing hook (``POSTPROCESSING_HOOKS``): OpenAPI links.

    They tell a client (and schemathesis's stateful phase) how one answer leads to the
    next request: the created game's id to its moves, the version a game answer shows to
    the move chosen from it. A link whose source or target operation is absent is skipped.
    """
    operations = {
        operation["operationId"]: operation
        for item in result.get("paths", {}).values()
        for operation in item.values()
        if isinstance(operation, dict) and "operationId" in operation
    }
    for (source, status_code), links in _LINKS.items():
        response = operations.get(source, {}).get("responses", {}).get(status_code)
        if response is None:
            continue
        for name, (target, parameters, body) in links.items():
            if target not in operations:
                continue
            link: dict[str, object] = {"operationId": target}
            if parameters:
                link["parameters"] = parameters
            if body is not None:
                link["requestBody"] = body
            response.setdefault("links", {})[name] = link
    return result


# --- Request bodies: required when every shape they may take requires a field ---------------


def _requires_a_field(schema: dict, components: dict, seen: frozenset = frozenset()) -> bool:
    """Whether every value ``schema`` allows is an object with some required property
    (``seen``: the components already on the way here, so a cycle answers no)."""
    ref = schema.get("$ref")
    if ref:
        name = ref.rsplit("/", 1)[-1]
        return name not in seen and _requires_a_field(
            components.get(name, {}), components, seen | {name}
        )
    if schema.get("required"):
        return True
    alternatives = schema.get("oneOf") or schema.get("anyOf")
    if alternatives:
        return all(_requires_a_field(shape, components, seen) for shape in alternatives)
    return any(_requires_a_field(part, components, seen) for part in schema.get("allOf", ()))


def mark_required_bodies(result, generator, request, public):
    """drf-spectacular post-processing hook (``POSTPROCESSING_HOOKS``): a request body is
    ``required`` when each of its shapes requires a field.

    drf-spectacular marks it so only for a plain serializer; a body told apart by a field
    (``PolymorphicProxySerializer``: a new game, a move) was left optional, though the API
    answers 400 without it. An absent body reads as ``{}``, so one whose every shape
    requires a field can never be left out.
    """
    components = result.get("components", {}).get("schemas", {})
    for item in result.get("paths", {}).values():
        for operation in item.values():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            if body is None or body.get("required"):
                continue
            shapes = [media.get("schema", {}) for media in body.get("content", {}).values()]
            if shapes and all(_requires_a_field(shape, components) for shape in shapes):
                body["required"] = True
    return result
