"""``/next/``: "Next game", one click to the game where it is your turn with the nearest
deadline (``games.queries.next_game_waiting_on``; the API's twin is ``GET
/api/games/next/``)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts.authenticated import AuthenticatedHttpRequest
from games import queries


@never_cache
@login_required
@require_http_methods(["GET", "HEAD"])
def next_game(request: AuthenticatedHttpRequest) -> HttpResponse:
    """To the table of the game that waits for the reader's move with the nearest deadline;
    to My games, saying so, when none does. Changes nothing."""
    game = queries.next_game_waiting_on(request.user)
    if game is None:
        messages.info(request, _("No game waits for your move just now."))
        return redirect("games:my-games")
    return redirect("games:game", game_id=game.id)
