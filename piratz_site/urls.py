"""The site's URLs: the REST API under /api/, player pages, the moderators' admin."""

from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest
from django.urls import include, path
from django.views import defaults

from accounts.views import unsubscribe
from games.api.errors import json_error_view
from notifications.dev_views import mailbox

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("games.api.urls")),
    path("api/auth/", include("accounts.api_urls")),
    path("api/me/", include("accounts.me_urls")),
    path("accounts/", include("accounts.urls")),
    # One-click unsubscribe links in emails (RFC 8058): short, and outside /accounts/ login.
    path("unsubscribe/<str:token>/", unsubscribe, name="unsubscribe"),
    path("", include("games.urls")),
]

if settings.DEBUG:  # local runs only: it shows everyone's emails, login links included
    urlpatterns.insert(0, path("dev/mailbox/", mailbox, name="dev-mailbox"))

_api_404 = json_error_view(404, "not_found", "There is nothing at this address.")
_api_500 = json_error_view(500, "server_error", "Something went wrong on our side.")


def handler404(request: HttpRequest, exception=None):
    """JSON under /api/ (clients parse errors), Django's HTML page elsewhere."""
    if request.path.startswith("/api/"):
        return _api_404(request, exception)
    return defaults.page_not_found(request, exception)


def handler500(request: HttpRequest):
    if request.path.startswith("/api/"):
        return _api_500(request)
    return defaults.server_error(request)
