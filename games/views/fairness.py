"""The verification page of a game: its shuffle's commitment, seeds and checks (games.fairness)."""

import json

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from accounts.authenticated import AuthenticatedHttpRequest
from games import actions, fairness, queries


@login_required
@require_http_methods(["GET", "HEAD"])
def verification_page(request: AuthenticatedHttpRequest, game_id) -> HttpResponse:
    """What ``GET /api/games/{id}/verification/`` answers, for people: the same access
    (players and staff; 404 for outsiders) and the same data, with the JSON to download."""
    try:
        game = queries.get_visible_game(request.user, game_id)
    except actions.ServiceError:
        raise Http404("No such game, or you are not a player of it.") from None
    data = fairness.verification(game)
    # Seat.public_name names every seat: a player's, a bot's own, a stand-in's.
    names = {seat.seat: seat.public_name for seat in game.seats.all()}
    context = {
        "game": game,
        "data": data,
        # A game whose rules deal no checkable shuffle (Rattenscharf) has none to check,
        # whatever its age; a Piratz game without a commitment predates them.
        "game_checkable": fairness.checkable(game.rules),
        "client_seeds": [
            {"seat": entry["seat"], "name": names.get(entry["seat"]), "seed": entry["client_seed"]}
            for entry in data["client_seeds"]
        ],
        "reshuffles": sum(1 for s in data["shuffles"] or () if s["label"] == "reshuffle"),
        "as_json": json.dumps(data, indent=1),
    }
    return render(request, "games/verification.html", context)
