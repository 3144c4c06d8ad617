"""The player page (/people/<public id>/): a person's finished games, wins and reliability.

Its address is the person's ``User.public_id``: it never changes (a new name keeps it) and
never passes to another, so a link always leads to the person it was made for. The old
addresses by name (/players/<name>/) lead there while someone is shown by that name.
Signed-in players only (a game link's session is signed out here: ``accounts.game_scope``);
it shows public names and counts, never an address. The report form on it is drawn by
moderation's template tag (``report_form``; games may not import moderation: the floors).
"""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts.authenticated import AuthenticatedHttpRequest
from games import players


@never_cache
@login_required
@require_http_methods(["GET", "HEAD"])
def player_page(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    """The person whose page address is ``public_id`` (404 for none; 410 with a sentence
    once they deleted their account): their record (``players.record_of``) and
    member-since month; the report form when the reader shares a game with them
    (``players.games_together``) and is not them."""
    player = players.player_with_page(public_id)
    if player is None:
        raise Http404("No player has this page.")
    if player.erased_at is not None:
        return render(request, "games/player_gone.html", status=410)
    together = [] if player.pk == request.user.pk else players.games_together(request.user, player)
    context = {
        "player": player,
        "name": player.public_name,
        "record": players.record_of(player),
        "itself": player.pk == request.user.pk,
        "games_together": together,
    }
    return render(request, "games/player.html", context)


@never_cache
@login_required
@require_http_methods(["GET", "HEAD"])
def player_by_name(request: AuthenticatedHttpRequest, name: str) -> HttpResponse:
    """The old address by name: a temporary redirect to the page of the person shown as
    ``name`` now (``players.player_named``), 404 for none. Temporary: names change hands."""
    player = players.player_named(name)
    if player is None:
        raise Http404("No player has this name.")
    return HttpResponseRedirect(reverse("games:player", args=[player.public_id]))
