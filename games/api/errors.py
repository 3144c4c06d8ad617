"""One error shape for the whole API: ``{"code": "...", "detail": "human sentence"}``."""

import logging

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

logger = logging.getLogger(__name__)


class ApiError(exceptions.APIException):
    """An API error with an explicit code from CONTRACT.md's table.

    Raise it from views (or translate service errors into it) to answer with that
    status and code; the exception handler below renders it in the one shape.
    """

    def __init__(self, status_code: int, code: str, detail: str):
        self.status_code = status_code
        super().__init__(detail=detail, code=code)


# DRF's own exceptions, mapped to the codes of CONTRACT.md (and a few more it leaves open).
_CODES = {
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "not_authenticated",
    exceptions.NotFound: "not_found",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.ParseError: "invalid",
    exceptions.ValidationError: "invalid",
}


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

    response = exception_handler(exc, context)
    if response is None:
        # Not an API exception: a bug. Log it with the traceback, answer in our shape.
        logger.exception("Unhandled error in %s", context.get("view").__class__.__name__)
        return Response(
            error_body("server_error", "Something went wrong on our side; nothing was changed."),
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )

    if isinstance(exc, ApiError):
        code = exc.detail.code  # ApiError's detail is always one string carrying its code
    else:
        code = next((c for cls, c in _CODES.items() if isinstance(exc, cls)), "error")
    body = error_body(code, _sentence(exc.detail))
    if isinstance(exc, exceptions.ValidationError) and isinstance(exc.detail, dict):
        body["fields"] = exc.detail  # machine-readable per-field messages, for forms
    response.data = body
    return response


def json_error_view(status_code: int, code: str, detail: str):
    """A plain Django view answering in the API's error shape (for handler404/500)."""

    def view(request, exception=None):
        return JsonResponse(error_body(code, detail), status=status_code)

    return view
