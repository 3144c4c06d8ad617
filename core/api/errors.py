"""One error shape for the whole API: ``{"code": "...", "detail": "human sentence"}``."""

import logging
from typing import cast

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, JsonResponse
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from core.api.exceptions import SuspendedError
from core.errors import ServiceError

logger = logging.getLogger(__name__)


# Each service error code (core.errors.ServiceError) answers with one HTTP status
# (docs/api.md "Errors").
STATUS_OF_CODE = {
    "invalid": 400,
    "illegal_action": 400,
    "not_a_player": 403,
    "not_found": 404,
    "not_your_turn": 409,
    "stale_version": 409,
    "game_not_active": 409,
    "not_standing_in": 409,
    "not_host": 403,
    "paused": 409,
    # A well-formed request that the current state of what it acts on refuses: done
    # already or final (resigned, extended this turn), nothing to undo (not paused), a
    # limit of things reached (5 API keys). Reading that thing again shows why.
    "conflict": 409,
    "throttled": 429,
    "suspended": 403,
    "unavailable": 503,
}

# Seconds a client is asked to wait (``Retry-After``) when the database cannot be reached.
RETRY_AFTER_SECONDS = 5


class ApiError(exceptions.APIException):
    """An API error with an explicit code from the table of docs/api.md "Errors".

    Raise it from views (or translate service errors into it) to answer with that
    status and code; the exception handler below renders it in the one shape.
    """

    def __init__(self, status_code: int, code: str, detail: str):
        self.status_code = status_code
        super().__init__(detail=detail, code=code)

    # Seconds for ``Retry-After``: DRF's exception handler sends it when it is set.
    wait: int | None = None


def refused(error: ServiceError) -> ApiError:
    """The API answer to a request the service refused: the status its code maps to."""
    return ApiError(STATUS_OF_CODE[error.code], error.code, error.detail)


def too_large() -> ApiError:
    """413 ``too_large``: the body is over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (nothing was read)."""
    return ApiError(
        413,
        "too_large",
        _("The request body is larger than the %(limit)d bytes this service accepts.")
        % {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE},
    )


def is_database_unavailable(exc: BaseException | None) -> bool:
    """Whether ``exc`` says the database cannot be reached (down, restarting, connection
    lost or refused) rather than that the request or our code is wrong.

    Django raises these from any query when the server is gone; a transaction that met one
    was rolled back (or never began), so the request changed nothing and may be repeated.
    """
    return isinstance(exc, (OperationalError, InterfaceError))


def unavailable_detail() -> str:
    return _("The service cannot reach its database just now; nothing was changed. Try again.")


def unavailable() -> ApiError:
    """503 ``unavailable`` with ``Retry-After``: the database cannot be reached."""
    error = ApiError(503, "unavailable", unavailable_detail())
    error.wait = RETRY_AFTER_SECONDS  # DRF's exception handler turns it into Retry-After
    return error


# DRF's own exceptions, mapped to the codes of docs/api.md "Errors".
_CODES = {
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "not_authenticated",
    exceptions.NotFound: "not_found",
    SuspendedError: "suspended",  # before PermissionDenied, its base class
    exceptions.PermissionDenied: "permission_denied",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.ParseError: "invalid",
    exceptions.ValidationError: "invalid",
}


# An error answer is of constant size, whatever the request: at most this many messages
# (DRF reports every bad item of a list, every unknown key), each cut to this length, and
# field names too (an unknown key is the client's, of any length).
MAX_ERROR_MESSAGES = 10
MAX_MESSAGE_CHARS = 300
MAX_FIELD_NAME_CHARS = 80


def _shortened(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters in its middle: a message that echoes a long
    value still ends with what is wrong with it."""
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2
    return text[:head] + "…" + text[len(text) - (limit - 1 - head) :]


def _bounded(detail, room: list[int]):
    """``detail`` (DRF's nested dicts and lists of messages) with at most ``room[0]`` messages
    in all, each shortened; ``room[0]`` is what is left, negative if messages were left out."""
    if isinstance(detail, dict):
        kept = {}
        for field, value in detail.items():
            if room[0] <= 0:
                room[0] = -1
                break
            kept[_shortened(str(field), MAX_FIELD_NAME_CHARS)] = _bounded(value, room)
        return kept
    if isinstance(detail, list):
        kept_items = []
        for item in detail:
            if room[0] <= 0:
                room[0] = -1
                break
            kept_items.append(_bounded(item, room))
        return kept_items
    room[0] -= 1
    code = getattr(detail, "code", None)
    return exceptions.ErrorDetail(_shortened(str(detail), MAX_MESSAGE_CHARS), code=code)


def bounded_detail(detail) -> tuple[object, bool]:
    """``detail`` cut to ``MAX_ERROR_MESSAGES`` messages, and whether any were left out."""
    room = [MAX_ERROR_MESSAGES]
    kept = _bounded(detail, room)
    return kept, room[0] < 0


def _sentence(detail) -> str:
    """Flatten DRF's nested validation details into one readable sentence."""
    if isinstance(detail, dict):
        parts = []
        for field, value in detail.items():
            text = _sentence(value)
            parts.append(text if field == "non_field_errors" else f"{field}: {text}")
        return " ".join(parts)
    if isinstance(detail, list):
        return " ".join(_sentence(item) for item in detail)
    return str(detail)


def error_body(code: str, detail: str, **extra) -> dict:
    return {"code": code, "detail": detail, **extra}


def api_exception_handler(exc, context):
    """DRF's EXCEPTION_HANDLER: every error leaves the API in the one shape, 500s included."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound("No such game, or you are not a player of it.")
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, RequestDataTooBig):
        # Raised by Django when the parser reads a body over DATA_UPLOAD_MAX_MEMORY_SIZE.
        exc = too_large()
    elif is_database_unavailable(exc):
        exc = unavailable()

    response = exception_handler(exc, context)
    if response is None:
        # Not an API exception: a bug. Log it with the traceback, answer in our shape.
        logger.exception("Unhandled error in %s", context.get("view").__class__.__name__)
        return Response(
            error_body("server_error", "Something went wrong on our side; nothing was changed."),
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )

    if isinstance(exc, ApiError):
        # ApiError's detail is always one string carrying its code.
        code = cast(exceptions.ErrorDetail, exc.detail).code or "error"
    else:
        code = next((c for cls, c in _CODES.items() if isinstance(exc, cls)), "error")
    detail, left_out = bounded_detail(exc.detail)
    sentence = _sentence(detail)
    if left_out:
        sentence += " " + _("Further problems were left out.")
    body = error_body(code, sentence)
    if isinstance(exc, exceptions.ValidationError) and isinstance(detail, dict):
        body["fields"] = detail  # machine-readable per-field messages, for forms
    response.data = body
    return response


# What Django itself answers outside any API view (no URL matched, a suspicious request,
# a crash in middleware), by status: the code and sentence the API says instead.
_DJANGO_ERRORS = {
    400: ("invalid", "The request is malformed."),
    403: ("permission_denied", "You may not do this."),
    404: ("not_found", "There is nothing at this address."),
    405: ("method_not_allowed", "This address does not accept that method."),
    413: ("too_large", "The request body is larger than this service accepts."),
    500: ("server_error", "Something went wrong on our side; nothing was changed."),
    503: ("unavailable", "The service cannot reach its database just now; nothing was changed."),
}


def json_error_for_status(status_code: int) -> JsonResponse:
    """The API's error shape for an error status that Django, not an API view, answered."""
    code, detail = _DJANGO_ERRORS.get(status_code, ("error", "The request could not be answered."))
    return JsonResponse(error_body(code, detail), status=status_code)
