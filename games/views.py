"""Pages players reach from their email: the home page and invitations."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from games import actions, queries
from games.models import GameStatus


def home(request: HttpRequest) -> HttpResponse:
    """What the service is, and (when logged in) the visitor's games."""
    games = []
    if request.user.is_authenticated:
        games = queries.games_of(request.user)[:50]
    return render(request, "games/home.html", {"games": games})


# HEAD like GET: mail scanners check links with it, and a 405 looks like a broken link.
@require_http_methods(["GET", "HEAD", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """An emailed invitation: GET only shows it (mail scanners fetch links); POST answers it.

    The signed token is the proof that the visitor received the invitation, so no
    login is needed to accept or decline.
    """
    try:
        game, seat = actions.read_invitation_token(token)
    except actions.GameError as error:
        return render(request, "games/invitation_invalid.html", {"error": error}, status=404)

    error = None
    if request.method == "POST":
        decision = request.POST.get("decision")
        try:
            if decision == "accept":
                game = actions.do_accept_invitation(game.id, seat.user)
            elif decision == "decline":
                game = actions.do_decline_invitation(game.id, seat.user)
            else:
                error = "Choose accept or decline."
        except actions.GameError as refused:
            error = refused.detail
        seat.refresh_from_db()

    # Past its expiry an invitation is closed although the sweep may not have cancelled
    # the game yet: no Accept button under an "open until" time in the past.
    expired = game.invitation_has_expired(timezone.now())
    context = {
        "game": game,
        "seat": seat,
        "seats": game.seats.select_related("user"),
        "error": error,
        "expired": expired,
        "can_answer": game.status == GameStatus.INVITED and not seat.accepted and not expired,
    }
    return render(request, "games/invitation.html", context, status=400 if error else 200)
