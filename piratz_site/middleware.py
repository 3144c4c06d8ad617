"""Under /api/ every answer is JSON: Django's own error pages become the API's error shape.

And when the database cannot be reached, every answer is a 503 (JSON under /api/, a plain
page elsewhere) with ``Retry-After``, never a 500 with a traceback.
"""

import sys

from django.core.signals import got_request_exception
from django.http import HttpRequest, HttpResponse
from django.utils.html import escape
from django.utils.translation import gettext as _

from core.api.errors import (
    RETRY_AFTER_SECONDS,
    is_database_unavailable,
    json_error_for_status,
    unavailable_detail,
)

API_PREFIX = "/api/"


def _is_json(response: HttpResponse) -> bool:
    media_type = response.get("Content-Type", "").split(";")[0].strip().lower()
    return media_type == "application/json" or media_type.endswith("+json")


def _note_database_unavailable(sender, request=None, **kwargs) -> None:
    """Mark a request whose uncaught exception says the database is unreachable.

    Django turns an exception raised in a view or in any middleware into a 500 response at
    that layer (``convert_exception_to_response``), so the outermost middleware never sees
    the exception itself, only the 500. Django sends this signal from inside the ``except``
    block, where the exception is still at hand: the mark lets the middleware below tell
    "the database is down" (503, try again) from a bug (500).
    """
    if request is not None and is_database_unavailable(sys.exception()):
        request.database_unavailable = True


got_request_exception.connect(
    _note_database_unavailable, dispatch_uid="piratz_site.middleware.database_unavailable"
)


def database_unavailable_response(request: HttpRequest) -> HttpResponse:
    """503 with ``Retry-After``: the API's JSON shape under /api/, a plain page elsewhere.

    The page is built without templates or context processors: those may touch the session
    or the user, that is the database that is down.
    """
    if request.path.startswith(API_PREFIX):
        response: HttpResponse = json_error_for_status(503)
    else:
        title = escape(_("Back in a moment"))
        body = (
            "<!doctype html><html><head><meta charset='utf-8'>"
            f"<title>{title}</title></head><body><h1>{title}</h1>"
            f"<p>{escape(unavailable_detail())}</p></body></html>"
        )
        response = HttpResponse(body, status=503, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class ApiErrorsAsJsonMiddleware:
    """Replace any error answer under ``/api/`` that is not JSON with ``{"code", "detail"}``.

    API views answer every error in the one shape themselves (``api_exception_handler``),
    but some answers never reach a view: a path no URL matches, or an exception in
    middleware. Django renders those as HTML, and with ``DEBUG`` on as its technical
    pages, which bypass ``handler404``/``handler500`` and show settings and tracebacks.
    Clients parse every error body, so here the status is kept and the body replaced.
    Success answers (the Swagger UI page at ``/api/docs/`` is HTML) pass untouched.

    A request that failed because the database is unreachable (see
    ``_note_database_unavailable``), anywhere, answers 503 with ``Retry-After`` instead of
    the 500 (or DEBUG's technical page) Django made of it.

    Must come first in ``MIDDLEWARE``, so that it sees the answers of every other one.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if getattr(request, "database_unavailable", False) and response.status_code == 500:
            return database_unavailable_response(request)
        if (
            request.path.startswith(API_PREFIX)
            and response.status_code >= 400
            and not _is_json(response)
        ):
            replacement = json_error_for_status(response.status_code)
            for header in ("WWW-Authenticate", "Allow", "Retry-After"):
                if header in response:
                    replacement[header] = response[header]
            return replacement
        return response
