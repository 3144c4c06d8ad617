"""Substitutes on the pages: the host's chair offers an absent player's seat (to an address
or in the lobby) and withdraws the offer; the emailed link's page shows the seat and takes
it over. Thin: parse, call ``games.actions.substitutes``, go back (POST-redirect-GET)."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from accounts.game_scope import sign_in_for_game
from accounts.models import User
from core.errors import ServiceError
from games.actions import substitutes
from games.clocks import clock_words
from games.models import GameStatus, SeatOffer
from games.views.together import int_or_none, poster_or_none, tell_refusal, to_login_then_table


def _back_to_table(game_id) -> HttpResponse:
    return redirect("games:game", game_id=game_id)


@require_POST
def offer_seat(request: HttpRequest, game_id) -> HttpResponse:
    """The host's "Offer <player>'s seat to a substitute": to the address typed, or, with
    ``where=lobby``, in the lobby; from the version the page showed."""
    if (user := poster_or_none(request)) is None:
        return to_login_then_table(game_id)
    seat = int_or_none(request.POST.get("seat"))
    version = int_or_none(request.POST.get("version"))
    where = request.POST.get("where")
    email = request.POST.get("email", "").strip()
    if seat is None or version is None or where not in ("email", "lobby"):
        messages.error(request, _("The form was incomplete, so nothing changed."))
        return _back_to_table(game_id)
    if where == "email" and not email:
        messages.error(request, _("Type the address to offer the seat to."))
        return _back_to_table(game_id)
    try:
        substitutes.do_offer_seat(
            game_id,
            user,
            seat,
            email=email if where == "email" else None,
            lobby=where == "lobby",
            version=version,
        )
    except ServiceError as refused:
        tell_refusal(request, refused)
    else:
        if where == "lobby":
            messages.success(
                request, _("The seat is offered in the lobby: anyone may take it over.")
            )
        else:
            messages.success(request, _("The seat is offered by email: the link takes it over."))
    return _back_to_table(game_id)


@require_POST
def withdraw_offer(request: HttpRequest, game_id) -> HttpResponse:
    """The host's "Withdraw the offer" of a seat."""
    if (user := poster_or_none(request)) is None:
        return to_login_then_table(game_id)
    seat = int_or_none(request.POST.get("seat"))
    if seat is None:
        messages.error(request, _("The form was incomplete, so nothing changed."))
        return _back_to_table(game_id)
    try:
        substitutes.do_withdraw_seat_offer(game_id, user, seat)
    except ServiceError as refused:
        tell_refusal(request, refused)
    else:
        messages.success(request, _("The offer is withdrawn: nobody can take the seat now."))
    return _back_to_table(game_id)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def offer_page(request: HttpRequest, token: str) -> HttpResponse:
    """An emailed offer of a seat: GET only shows it (mail scanners fetch links); its POST
    takes the seat over for the address's person (the link proves they got the email),
    signs them in for that game (``sign_in_for_game``, as a game link does) and opens it."""
    try:
        offer = substitutes.offer_for_token(token)
    except ServiceError as invalid:
        return render(request, "games/substitute_invalid.html", {"error": invalid}, status=404)
    game = offer.game
    error = None
    if request.method == "POST":
        person = User.objects.get_or_create_for_email(offer.email)
        try:
            substitutes.do_take_seat_offer(offer.pk, person, token=token)
        except ServiceError as refused:
            error = refused.detail
        else:
            sign_in_for_game(request, person, game.id)
            messages.success(request, _("The seat is yours: you play it from here to the end."))
            return _back_to_table(game.id)
        offer.refresh_from_db()
        game.refresh_from_db()
    seats = sorted(game.seats.select_related("user"), key=lambda s: s.seat)
    open_now = (
        offer.closed == SeatOffer.Closed.OPEN
        and offer.expires_at > timezone.now()
        and game.status == GameStatus.ACTIVE
    )
    context = {
        "offer": offer,
        "game": game,
        "game_name": game.rules.NAME,
        "seats": seats,
        "seat_label": offer.seat + 1,
        "clock_note": clock_words(game),
        "open_now": open_now,
        "error": error,
        # A forwarded email's link, opened where someone else is signed in.
        "signed_in_as": (
            request.user.public_name
            if request.user.is_authenticated and request.user.email != offer.email
            else None
        ),
    }
    return render(request, "games/substitute_offer.html", context, status=400 if error else 200)
