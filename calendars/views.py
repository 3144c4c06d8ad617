"""The calendar feed (``/calendar/<token>.ics``, polled by calendar apps without a session)
and its page in the settings (``/settings/calendar/``: make, replace, revoke)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import get_conditional_response
from django.utils.http import http_date
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts.authenticated import AuthenticatedHttpRequest
from accounts.preferences import settings_for

from . import feeds

# Calendar apps poll; a few minutes' delay after a move is fine, and "private" keeps the
# answer out of shared caches (the URL is a credential, the calendar personal).
FEED_CACHE_CONTROL = "private, max-age=300"


@require_http_methods(["GET", "HEAD"])
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """The person's calendar (``calendars.feeds.calendar_of``) for the feed whose token is
    ``token``; 404 for an unknown or revoked one (the same answer for both). Sends
    ``ETag`` and ``Last-Modified`` and answers 304 to a poll that has the current one."""
    feed = feeds.feed_for_token(token)
    if feed is None:
        raise Http404(_("No such calendar: the address is wrong or was revoked."))
    answer = feeds.poll(feed, timezone.now())
    etag = f'"{answer.etag}"'
    last_modified = http_date(answer.last_modified.timestamp())
    conditional = get_conditional_response(
        request, etag=etag, last_modified=int(answer.last_modified.timestamp())
    )
    response = conditional or HttpResponse(answer.body, content_type="text/calendar; charset=utf-8")
    response["ETag"] = etag
    response["Last-Modified"] = last_modified
    response["Cache-Control"] = FEED_CACHE_CONTROL
    response["Content-Disposition"] = 'inline; filename="piratz.ics"'
    return response


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def calendar_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The person's calendar feed: whether they have one (its first characters, made,
    last polled). POST ``form=create`` makes one, replacing the old, and answers this page
    with its URL, once, in the body of that answer only (never in the session, a URL or a
    log; ``never_cache`` sends ``Cache-Control: no-store``); POST ``form=revoke`` deletes
    it, then back here."""
    new_url = None
    if request.method == "POST":
        which = request.POST.get("form")
        if which == "revoke":
            if feeds.do_revoke_feed(request.user):
                messages.success(
                    request, _("Your calendar address is revoked: it no longer works.")
                )
            else:
                messages.error(request, _("You have no calendar address to revoke."))
            return redirect("settings-calendar")
        if which != "create":
            messages.error(request, _("Nothing was changed: the form sent was not recognised."))
            return redirect("settings-calendar")
        _feed, token = feeds.do_create_feed(request.user)
        new_url = settings.SITE_URL.rstrip("/") + reverse("calendar-feed", args=[token])
    context = {
        "feed": feeds.feed_of(request.user),
        "new_url": new_url,
        "zone": settings_for(request.user).zone.key,
    }
    return render(request, "calendars/calendar.html", context)
