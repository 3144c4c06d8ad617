"""The report button of the player page: a player reports another to the moderators.

The page itself is ``games.views.players.player_page``; this is its form's POST, here
because filing is ``moderation.actions.do_file_report`` (the API's ``POST /api/reports/``
files the same way), which the games app lies below.
"""

from datetime import timedelta

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from rest_framework.settings import api_settings

from accounts.authenticated import AuthenticatedHttpRequest
from core.errors import ServiceError
from games import players
from games.models import Seat
from moderation import actions
from moderation.models import Report


def reports_allowed(reporter, now) -> bool:
    """May ``reporter`` file one more report now? At most the API's rate
    (``DEFAULT_THROTTLE_RATES["reports"]``, ``API_THROTTLE_REPORTS``), counted over the
    reports they filed in its window, by any way: one person cannot flood the queue."""
    # Read per request, as the API's throttles do, so overridden settings apply.
    rate = str(api_settings.DEFAULT_THROTTLE_RATES.get("reports") or "")
    if not rate:
        return True
    # DRF's form: "10/hour" (the period's first letter counts: s, m, h or d).
    number, period = rate.split("/")
    seconds = {"s": 1, "m": 60, "h": 3600, "d": 86400}[period[0]]
    since = now - timedelta(seconds=seconds)
    return Report.objects.filter(reporter=reporter, created_at__gte=since).count() < int(number)


@login_required
@require_POST
def report_player(request: AuthenticatedHttpRequest) -> HttpResponse:
    """File a report about the player whose page address is ``player`` (404 as the player
    page; by address, not name: a name can change hands between the page and the post)
    in a game both play in (``game``), with ``category`` and ``text``; the action's
    refusal, or the rate limit's, as a message; then back to the player page."""
    player = players.player_with_page(request.POST.get("player", ""))
    if player is None or player.erased_at is not None:
        raise Http404("No player has this page.")
    back = redirect("games:player", public_id=player.public_id)
    try:
        game_id = forms.UUIDField().clean(request.POST.get("game"))
    except forms.ValidationError:
        messages.error(request, _("Choose the game the report is about."))
        return back
    seat = Seat.objects.filter(game_id=game_id, user=player).values_list("seat", flat=True).first()
    if seat is None:
        messages.error(request, _("You can report a player only about a game you play together."))
        return back
    if not reports_allowed(request.user, timezone.now()):
        messages.error(request, _("You have filed many reports lately; try again later."))
        return back
    try:
        actions.do_file_report(
            request.user,
            game_id,
            request.POST.get("category", ""),
            request.POST.get("text", ""),
            seat=seat,
        )
    except ServiceError as refused:
        messages.error(request, refused.detail)
    else:
        messages.success(
            request,
            _(
                "Thank you: your report went to the moderators. "
                "You get an email when it is handled."
            ),
        )
    return back
