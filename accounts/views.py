"""Login, logout and unsubscribe pages. Logic lives in login_links, unsubscribe, preferences."""

import math

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user, login, logout
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from . import preferences, schedule
from .forms import LoginLinkRequestForm
from .game_scope import scoped_games
from .login_links import (
    LinkProblem,
    LoginLinkError,
    consume_login_link,
    mask_email,
    read_login_link,
    request_login_link,
    safe_next_url,
)
from .models import normalize_email
from .moderators import if_mistaken_sentence
from .throttling import login_link_wait
from .unsubscribe import UnsubscribeLinkInvalid, read_unsubscribe_token, settings_url

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def sign_in(request: HttpRequest, user) -> None:
    """Sign ``user`` in on this browser, unless they are the one signed in already.

    ``login()`` rotates the CSRF token every time, even for the player already signed in:
    then every form of their other open tabs (the table they were playing in, the
    language switch, settings) failed with 403 after they opened a link of an email.
    Their session and its token stay as they are instead. Another person (or nobody)
    signed in: ``login()`` as always (a new session, a new token, ``last_login``).
    """
    current = getattr(request, "user", None)
    if current is not None and current.is_authenticated and current.pk == user.pk:
        return
    login(request, user, backend=MODEL_BACKEND)


# A kind of email inside "Stop <kind> emails for …?", in the reader's language.
UNSUBSCRIBE_WORDS = {
    schedule.EmailKind.YOUR_TURN: pgettext_lazy("Stop … emails", "your turn"),
    schedule.EmailKind.REMINDER: pgettext_lazy("Stop … emails", "reminder"),
    schedule.EmailKind.AUTO_MOVED: pgettext_lazy("Stop … emails", "auto moved"),
    schedule.EmailKind.GAME_STARTED: pgettext_lazy("Stop … emails", "game started"),
    schedule.EmailKind.GAME_OVER: pgettext_lazy("Stop … emails", "game over"),
    schedule.EmailKind.GAME_ENDED: pgettext_lazy("Stop … emails", "game ended"),
    schedule.EmailKind.DIGEST: pgettext_lazy("Stop … emails", "digest"),
    schedule.EmailKind.TABLE_TALK: pgettext_lazy("Stop … emails", "table talk"),
    schedule.EmailKind.FOLLOWED: pgettext_lazy("Stop … emails", "followed games and players"),
}

# Tampered links are a bad request; expired and used ones are gone for good.
_PROBLEM_STATUS = {
    LinkProblem.INVALID: 400,
    LinkProblem.EXPIRED: 410,
    LinkProblem.USED: 410,
    LinkProblem.INACTIVE: 403,
    LinkProblem.SUSPENDED: 403,
}


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def login_page(request: HttpRequest) -> HttpResponse:
    """GET: the email form (``?next=/path/`` is kept). POST: send a link, say to check mail."""
    if request.method != "POST":
        form = LoginLinkRequestForm(initial={"next": safe_next_url(request.GET.get("next"))})
        context = {"form": form, "game_scoped": scoped_games(request) is not None}
        return render(request, "accounts/login.html", context)

    form = LoginLinkRequestForm(request.POST)
    wait = login_link_wait(request)
    if wait is not None:
        minutes = max(1, math.ceil(wait / 60))
        context = {"form": form, "throttled_minutes": minutes}
        return render(request, "accounts/login.html", context, status=429)
    if not form.is_valid():
        return render(request, "accounts/login.html", {"form": form}, status=400)
    request_login_link(form.cleaned_data["email"], form.cleaned_data["next"])
    # The same page whether a link went out or a limit held it back: no account enumeration.
    email = normalize_email(form.cleaned_data["email"])
    context = {"email": email, "minutes": settings.LOGIN_LINK_MINUTES}
    return render(request, "accounts/login_sent.html", context)


@never_cache
@require_POST
def game_session_login_link(request: HttpRequest) -> HttpResponse:
    """POST from a game-only session (``game_scope``; a game email's link signed it in):
    email a login link to the session's own address, ``next`` kept, so one click opens
    the page it could not. Nothing typed: the page names the address masked only (a
    forwarded game link must not show the account's address). Anybody else goes to the
    login form."""
    # The middleware shows the session as signed out here; its own user is in the session.
    user = get_user(request)
    if scoped_games(request) is None or not user.is_authenticated:
        return redirect("accounts:login")
    next_url = safe_next_url(request.POST.get("next"))
    wait = login_link_wait(request)
    if wait is not None:
        form = LoginLinkRequestForm(initial={"next": next_url})
        minutes = max(1, math.ceil(wait / 60))
        context = {"form": form, "throttled_minutes": minutes, "game_scoped": True}
        return render(request, "accounts/login.html", context, status=429)
    request_login_link(user.email, next_url)
    context = {"email": mask_email(user.email), "minutes": settings.LOGIN_LINK_MINUTES}
    return render(request, "accounts/login_sent.html", context)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def login_link(request: HttpRequest, token: str) -> HttpResponse:
    """GET: a confirmation page that changes nothing (mail scanners fetch links).
    POST (CSRF-protected, from that page): spend the link, log in (see ``sign_in``), go to
    its ``next``."""
    try:
        if request.method != "POST":
            claim = read_login_link(token)
            return render(
                request, "accounts/login_confirm.html", {"masked_email": mask_email(claim.email)}
            )
        used = consume_login_link(token)
    except LoginLinkError as error:
        return _link_problem(request, error)
    # Spent above in any case (single use), even by the player signed in already.
    sign_in(request, used.user)
    if used.next_url:
        return HttpResponseRedirect(used.next_url)
    # A link asked for on the login page itself: land where a player's games are, and say
    # the sign-in worked (the home page gave no word of it).
    messages.success(request, _("You are signed in as %(name)s.") % {"name": used.user.public_name})
    return redirect("games:my-games")


@require_POST
def logout_page(request: HttpRequest) -> HttpResponse:
    """POST only (a GET could be triggered by any page embedding the URL); then home."""
    logout(request)
    return redirect("/")


def _link_problem(request: HttpRequest, error: LoginLinkError) -> HttpResponse:
    form = LoginLinkRequestForm(initial={"next": error.next_url})
    context = {"problem": error.problem.value, "form": form, "if_mistaken": if_mistaken_sentence()}
    return render(
        request, "accounts/login_link_problem.html", context, status=_PROBLEM_STATUS[error.problem]
    )


# RFC 8058: mail clients POST "List-Unsubscribe=One-Click" with no cookie and no CSRF
# token. Safe without CSRF protection: the signed link is the credential, and all it
# can do is switch one kind of email off for the person it was sent to.
@csrf_exempt
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET/HEAD: ask "stop these emails?" (changes nothing: mail scanners open links).
    POST: switch that kind of email off for that person and say it is done."""
    try:
        claim = read_unsubscribe_token(token)
    except UnsubscribeLinkInvalid:
        return render(request, "accounts/unsubscribe_invalid.html", status=404)
    context = {
        "masked_email": mask_email(claim.user.email),
        "kind": claim.kind.value,
        "kind_label": str(UNSUBSCRIBE_WORDS.get(claim.kind, claim.kind.value.replace("_", " "))),
        "settings_url": settings_url(),
    }
    if request.method != "POST":
        return render(request, "accounts/unsubscribe.html", context)
    preferences.do_unsubscribe(claim.user, claim.kind)
    return render(request, "accounts/unsubscribe_done.html", context)
