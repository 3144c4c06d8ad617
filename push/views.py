"""The installable app's shell: the web app manifest, the service worker and its offline page;
and the settings page's button that removes a subscribed browser.

``/sw.js`` is served from the site's root so that its scope is the whole site; it caches
the shell (the stylesheet, icons and the offline page: nothing personal, never a game
page) and shows the offline page when a page cannot be loaded; it shows push messages
and opens their game on a click (docs/push.md).
"""

import hashlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from accounts.authenticated import AuthenticatedHttpRequest
from core.errors import ServiceError

from . import actions

ICONS = [
    ("icons/icon.svg", "any", "image/svg+xml"),
    ("icons/icon-192.png", "192x192", "image/png"),
    ("icons/icon-512.png", "512x512", "image/png"),
]


@require_safe
def web_app_manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest (``application/manifest+json``), in the reader's language."""
    manifest = {
        "name": _("Piratz by mail"),
        "short_name": _("Piratz"),
        "description": _("Slow board games by email, browser and API."),
        "start_url": reverse("games:my-games"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#1d2939",
        "theme_color": "#1d2939",
        "icons": [
            {"src": static(path), "sizes": sizes, "type": kind, "purpose": "any"}
            for path, sizes, kind in ICONS
        ],
    }
    return JsonResponse(
        manifest,
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False},
    )


def shell_urls() -> list[str]:
    """What the service worker caches when it installs: the offline page and static files."""
    return [
        reverse("offline"),
        static("css/site.css"),
        static("favicon.svg"),
        *(static(path) for path, _sizes, _kind in ICONS),
    ]


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: the worker, with the shell's URLs (hashed names in production) and a
    cache name that changes with them, so a new deploy replaces the old cache."""
    urls = shell_urls()
    version = hashlib.sha256("\n".join(urls).encode()).hexdigest()[:12]
    body = render_to_string(
        "push/sw.js",
        {
            "shell": urls,
            "offline": reverse("offline"),
            "icon": static("icons/icon-192.png"),
            "version": version,
        },
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    # Browsers check for a new worker at least daily; no-cache makes them ask us each time.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
def offline_page(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows when a page cannot be loaded (cached at install,
    so it holds nothing personal: it is the same for everyone)."""
    return render(request, "push/offline.html")


@login_required
@require_POST
def remove_device(request: AuthenticatedHttpRequest, subscription_id: int) -> HttpResponse:
    """The settings page's "Stop push messages there" (``push.templatetags.push_devices``):
    remove one of the reader's subscriptions (``actions.do_unsubscribe``), then back to
    the settings page with what happened; another's or none is refused the same way."""
    try:
        actions.do_unsubscribe(request.user, subscription_id)
    except ServiceError as refused:
        messages.error(request, refused.detail)
    else:
        messages.success(request, _("That device gets no more push messages."))
    return redirect(reverse("settings-page") + "#push")
