"""Pages players reach from their email: the home page, invitations, a game and its signed link."""

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts.preferences import settings_for
from accounts.views import MODEL_BACKEND
from games import actions, describe, notify, queries
from games.models import GameStatus
from games.movelog import public_log


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


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def game_entry(request: HttpRequest, game_id, token: str) -> HttpResponse:
    """The signed link of a game email: GET shows one button and changes nothing (mail
    scanners open links); its POST (CSRF-protected) signs in as the link's player and
    goes to the game page. Refused for a tampered link, and once the game has ended."""
    try:
        seat = notify.read_entry_token(game_id, token)
    except actions.GameError as error:
        status = 410 if error.code == "game_not_active" else 404
        context = {"error": error, "game_url": reverse("games:game", args=[game_id])}
        return render(request, "games/enter.html", context, status=status)
    if request.method == "POST":
        login(request, seat.user, backend=MODEL_BACKEND)
        return redirect("games:game", game_id=seat.game_id)
    others = [s.user.public_name for s in seat.game.seats.select_related("user") if s != seat]
    return render(request, "games/enter.html", {"game": seat.game, "others": others})


@never_cache
@login_required
@require_http_methods(["GET", "HEAD"])
def game_page(request: HttpRequest, game_id) -> HttpResponse:
    """A game as the signed-in player (or staff) may see it, read-only; 404 for outsiders.

    Shows the engine's view for the reader's seat (a spectator's view for staff without a
    seat) and the public move log as rules P23 lets that reader see it.
    """
    try:
        game = queries.get_visible_game(request.user, game_id)
    except actions.GameError:
        raise Http404("No such game, or you are not a player of it.") from None
    seat = queries.seat_of(game, request.user)
    seats = sorted(game.seats.all(), key=lambda s: s.seat)
    names = describe.Names([s.user.public_name for s in seats], seat)
    table = log = None
    if game.state is not None:
        view = game.rules.view(game.load_state(), seat)
        table = describe.describe_table(view, names)
        if game.result is not None:
            table["result"] = describe.describe_result(game.result, names)
        moves = list(game.moves.order_by("number"))
        entries = public_log(game, seat, moves)
        rounds = {move.number: move.round for move in moves}
        current_round = game.round if game.is_active else None
        log = describe.describe_log(entries, rounds, current_round, names, game.rules.card)
    zone = settings_for(request.user).zone
    context = {
        "game": game,
        "seats": seats,
        "reader_seat": seat,
        "table": table,
        "log": log,
        "deadline": describe.format_moment(game.deadline, zone) if game.is_active else "",
        "current_name": None if game.current_seat is None else names.subject(game.current_seat),
    }
    return render(request, "games/game.html", context)
