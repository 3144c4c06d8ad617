"""The page of a form refused by Django's CSRF check (``CSRF_FAILURE_VIEW``).

Django's own is a bare English "Forbidden (403) CSRF verification failed" with its reason
for developers. A player meets it when a form is older than their sign-in (they signed in
again, or as someone else, in another tab) or when their browser keeps no cookies: this
page, in the site's layout and the reader's language, says that nothing was done and leads
back to the page the form came from. The status stays 403; Django's reason is only logged
(``django.security.csrf``), never shown, whatever ``DEBUG`` says.

The 404, 403 and 500 pages are plain templates (``templates/404.html``, ``403.html``,
``500.html``) rendered by Django's default handlers; under /api/ every error stays JSON
(``piratz_site.middleware.ApiErrorsAsJsonMiddleware``).
"""

from urllib.parse import urlsplit

from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from accounts.login_links import safe_next_url

# Forms that post to an address of their own: the page they were on. Every other form of
# the site posts to the page that shows it (settings, my games, an invitation, the
# buttons of an emailed link), which a GET shows again.
_FORM_PAGES = {
    "games:move": "games:game",
    "games:take-back": "games:game",
}
# Addresses that only take a POST, or where a GET would not lead back (home instead).
_NOT_A_PAGE = {"set_language", "accounts:logout", "mailin-mailgun", "api-reports"}


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: the site's page for a refused form; ``reason`` is not shown."""
    back = back_url(request)
    # ``back_page``: the page the language switch returns to (``request.path`` elsewhere).
    context = {"back_url": back, "back_page": {"path": back}}
    return render(request, "403_csrf.html", context, status=403)


def back_url(request: HttpRequest) -> str:
    """Where the reader of a refused form was: a path of this site, never another site.

    The Referer when it names a page of this site (our pages send only their origin,
    ``strict-origin``, so usually it does not); else the page the form belongs to; else
    "my games" for a signed-in player, the home page for anyone else.
    """
    return _from_referer(request) or _page_of_form(request) or _fallback(request)


def _from_referer(request: HttpRequest) -> str:
    referer = request.headers.get("Referer", "")
    if not referer or not url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return ""
    parts = urlsplit(referer)
    if parts.path in ("", "/") and not parts.query:
        return ""  # just the origin: it says nothing about the page
    return safe_next_url(parts.path + (f"?{parts.query}" if parts.query else ""))


def _page_of_form(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    if match is None:
        return ""
    if match.view_name == "set_language":
        # The switch posts the page it is on as ``next``.
        try:
            return safe_next_url(request.POST.get("next"))
        except (OSError, SuspiciousOperation, MultiPartParserError):
            # An unreadable or oversized body: the fallback below will do.
            return ""
    if match.view_name in _FORM_PAGES:
        return reverse(_FORM_PAGES[match.view_name], kwargs=match.kwargs)
    if match.view_name in _NOT_A_PAGE or request.path.startswith("/api/"):
        return ""
    return safe_next_url(request.path)


def _fallback(request: HttpRequest) -> str:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return reverse("games:my-games")
    return reverse("games:home")
