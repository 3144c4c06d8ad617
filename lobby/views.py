"""The lobby's pages: the open games with their filters, "Create an open game", and the
one-click join and withdraw forms. Thin: parse, call ``lobby.actions``, render."""

from dataclasses import astuple

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.authenticated import AuthenticatedHttpRequest
from core.errors import ServiceError
from games.actions.substitutes import do_take_seat_offer as take_seat_offer
from games.clocks import clock_words
from lobby import actions, queries, substitutes
from lobby.forms import CreateOpenGameForm, LobbyFilterForm

# Open games per page: the newest first; the filters narrow the rest down.
PAGE_SIZE = 30


@login_required
def lobby_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    """``/lobby/``: the open games the reader sees, newest first, with their filters."""
    form = LobbyFilterForm(request.GET)
    games = list(
        queries.lobby(request.user, form.filters(), reader_language=translation.get_language())[
            :PAGE_SIZE
        ]
    )
    ratings = queries.host_ratings(games)
    rows = [
        {
            "open_game": row,
            "game": row.game,
            "game_name": row.game.rules.NAME,
            "players": sorted(row.game.seats.all(), key=lambda seat: seat.seat),
            "host_rating": ratings[(row.game.host_id, row.game.game)],
            "clock": clock_words(row.game),
            "language": dict(settings.LANGUAGES).get(row.language, ""),
            "rating_bounds": queries.rating_bounds(row),
            "mine": row.game.host_id == request.user.pk,
            "seated": any(seat.user_id == request.user.pk for seat in row.game.seats.all()),
        }
        for row in games
    ]
    context = {
        "form": form,
        "rows": rows,
        # Running games' seats offered to a substitute (lobby.substitutes), beside them.
        "substitutes": substitutes.offer_rows(
            request.user, substitutes.visible_offers(request.user)[:PAGE_SIZE]
        ),
        "filtered": any(value is not None for value in astuple(form.filters())),
    }
    return render(request, "lobby/lobby.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def create_open_game(request: AuthenticatedHttpRequest) -> HttpResponse:
    """``/lobby/new/``: the form; POST puts the game in the lobby and goes back there."""
    form = CreateOpenGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            actions.do_create_open_game(request.user, **form.action_arguments())
        except ServiceError as refused:
            form.add_error(None, refused.detail)
        else:
            messages.success(
                request, _("Your game is in the lobby; it starts when the last seat is taken.")
            )
            return redirect("lobby:lobby")
    context = {"form": form, "open_game_hours": settings.OPEN_GAME_HOURS}
    return render(request, "lobby/new.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def join(request: AuthenticatedHttpRequest, game_id) -> HttpResponse:
    """Take a seat (one click in the lobby): at the table when the game started, else back."""
    try:
        _open_game, started = actions.do_join_open_game(
            game_id, request.user, reader_language=translation.get_language()
        )
    except ServiceError as refused:
        messages.error(request, refused.detail)
        return redirect("lobby:lobby")
    if started:
        messages.success(request, _("You took the last seat: the game has begun."))
        return redirect("games:game", game_id)
    messages.success(
        request,
        _("You have a seat; the game starts when the last one is taken. We will email you."),
    )
    return redirect("lobby:lobby")


@login_required
@require_POST
def leave(request: AuthenticatedHttpRequest, game_id) -> HttpResponse:
    """A player who joined gives their seat up before the start, and goes back to the lobby."""
    try:
        actions.do_leave_open_game(game_id, request.user)
    except ServiceError as refused:
        messages.error(request, refused.detail)
    else:
        messages.success(request, _("You left the game; your seat is open again."))
    return redirect("lobby:lobby")


@login_required
@require_POST
def take_substitute_seat(request: AuthenticatedHttpRequest, offer_id: int) -> HttpResponse:
    """Take a seat a host offers in the lobby over (one click): at the table when it worked."""
    try:
        game = take_seat_offer(offer_id, request.user)
    except ServiceError as refused:
        messages.error(request, refused.detail)
        return redirect("lobby:lobby")
    messages.success(request, _("The seat is yours: you play it from here to the end."))
    return redirect("games:game", game.id)


@login_required
@require_POST
def withdraw(request: AuthenticatedHttpRequest, game_id) -> HttpResponse:
    """The host takes their open game out of the lobby."""
    try:
        actions.do_withdraw_open_game(game_id, request.user)
    except ServiceError as refused:
        messages.error(request, refused.detail)
    else:
        messages.success(request, _("Your open game is withdrawn."))
    return redirect("lobby:lobby")
