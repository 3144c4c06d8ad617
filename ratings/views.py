"""The leaderboard pages (/leaderboard/<game>/): a game's established players, best first.

Signed-in players only, as the player pages they link to; public names, never an address.
"""

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts.authenticated import AuthenticatedHttpRequest
from games.catalogue import kinds, rules_for

from . import service
from .models import PROVISIONAL_GAMES

PER_PAGE = 50


@login_required
@require_http_methods(["GET", "HEAD"])
def first_leaderboard(request: AuthenticatedHttpRequest) -> HttpResponse:
    """/leaderboard/: the first game's leaderboard."""
    return redirect("ratings:leaderboard", kind=kinds()[0])


@never_cache
@login_required
@require_http_methods(["GET", "HEAD"])
def leaderboard_page(request: AuthenticatedHttpRequest, kind: str) -> HttpResponse:
    """``kind``'s leaderboard, ``PER_PAGE`` a page (``?page=``; a page that is not one shows
    the nearest), with links to the other games' and each player's page."""
    if kind not in kinds():
        raise Http404("No such game.")
    page = Paginator(service.leaderboard(kind), PER_PAGE).get_page(request.GET.get("page"))
    rows = [
        {"place": page.start_index() + index, "rating": rating}
        for index, rating in enumerate(page.object_list)
    ]
    context = {
        "kind": kind,
        "game_name": rules_for(kind).NAME,
        "games": [(other, rules_for(other).NAME) for other in kinds()],
        "page": page,
        "rows": rows,
        "provisional_games": PROVISIONAL_GAMES,
    }
    return render(request, "ratings/leaderboard.html", context)
