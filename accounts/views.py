"""Login and logout pages: ask for a link, confirm it, log out. Logic lives in login_links."""

import math

from django.conf import settings
from django.contrib.auth import login, logout
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from .forms import LoginLinkRequestForm
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
from .throttling import login_link_wait

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"

# Tampered links are a bad request; expired and used ones are gone for good.
_PROBLEM_STATUS = {
    LinkProblem.INVALID: 400,
    LinkProblem.EXPIRED: 410,
    LinkProblem.USED: 410,
    LinkProblem.INACTIVE: 403,
}


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def login_page(request: HttpRequest) -> HttpResponse:
    """GET: the email form (``?next=/path/`` is kept). POST: send a link, say to check mail."""
    if request.method != "POST":
        form = LoginLinkRequestForm(initial={"next": safe_next_url(request.GET.get("next"))})
        return render(request, "accounts/login.html", {"form": form})

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
@require_http_methods(["GET", "HEAD", "POST"])
def login_link(request: HttpRequest, token: str) -> HttpResponse:
    """GET: a confirmation page that changes nothing (mail scanners fetch links).
    POST (CSRF-protected, from that page): spend the link, log in, go to its ``next``."""
    try:
        if request.method != "POST":
            claim = read_login_link(token)
            return render(
                request, "accounts/login_confirm.html", {"masked_email": mask_email(claim.email)}
            )
        used = consume_login_link(token)
    except LoginLinkError as error:
        return _link_problem(request, error)
    login(request, used.user, backend=MODEL_BACKEND)
    return HttpResponseRedirect(used.next_url or "/")


@require_POST
def logout_page(request: HttpRequest) -> HttpResponse:
    """POST only (a GET could be triggered by any page embedding the URL); then home."""
    logout(request)
    return redirect("/")


def _link_problem(request: HttpRequest, error: LoginLinkError) -> HttpResponse:
    form = LoginLinkRequestForm(initial={"next": error.next_url})
    context = {"problem": error.problem.value, "form": form}
    return render(
        request, "accounts/login_link_problem.html", context, status=_PROBLEM_STATUS[error.problem]
    )
