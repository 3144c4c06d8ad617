"""Under /api/ every answer is JSON: Django's own error pages become the API's error shape."""

from django.http import HttpRequest, HttpResponse

from games.api.errors import json_error_for_status

API_PREFIX = "/api/"


def _is_json(response: HttpResponse) -> bool:
    media_type = response.get("Content-Type", "").split(";")[0].strip().lower()
    return media_type == "application/json" or media_type.endswith("+json")


class ApiErrorsAsJsonMiddleware:
    """Replace any error answer under ``/api/`` that is not JSON with ``{"code", "detail"}``.

    API views answer every error in the one shape themselves (``api_exception_handler``),
    but some answers never reach a view: a path no URL matches, or an exception in
    middleware. Django renders those as HTML, and with ``DEBUG`` on as its technical
    pages, which bypass ``handler404``/``handler500`` and show settings and tracebacks.
    Clients parse every error body, so here the status is kept and the body replaced.
    Success answers (the Swagger UI page at ``/api/docs/`` is HTML) pass untouched.

    Must come first in ``MIDDLEWARE``, so that it sees the answers of every other one.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
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
