"""The page of an emailed "delete my account" link (``accounts.erasure``): GET asks to
confirm and changes nothing (mail scanners open links); POST erases and signs out."""

from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from .erasure import ErasureLinkError, do_erase_account, read_erasure_link


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def erasure_link(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the confirmation, with what deleting means; POST: erase the link's account,
    sign this browser out when it was signed in as them, and say it is done. A link that
    cannot be used (invalid, expired, used) is explained (400), nothing changed. The
    link is the proof: whoever opened the email may delete, signed in or not."""
    try:
        if request.method == "POST":
            erased = do_erase_account(token)
        else:
            read_erasure_link(token)
    except ErasureLinkError as refused:
        context = {"problem": refused.problem.value}
        return render(request, "accounts/erasure_link_problem.html", context, status=400)
    if request.method != "POST":
        return render(request, "accounts/erasure_confirm.html")
    if request.user.is_authenticated and request.user.pk == erased.pk:
        logout(request)
    return render(request, "accounts/erasure_done.html")
