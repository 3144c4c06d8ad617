"""Pages players reach from their email: the home page, invitations, the game table (its
move forms and the version its page polls when the live stream is broken) and its signed
link."""

from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from accounts.forms import LoginLinkRequestForm
from accounts.game_scope import sign_in_for_game
from accounts.preferences import settings_for
from games import actions, presence, queries, seat_names, table, watching
from games.actions.invitations import player_counts_text
from games.catalogue import all_specs
from games.clocks import clock_words
from games.describe import format_moment
from games.models import Game, GameStatus, Seat
from games.notify import links
from games.views.together import together_context

# The time zone of a page read by someone not signed in (a watcher of a public game).
UTC_ZONE = ZoneInfo("UTC")


def home(request: HttpRequest) -> HttpResponse:
    """What the service is (the games of the catalogue), and (when logged in) the
    visitor's games."""
    games = []
    if request.user.is_authenticated:
        games = queries.games_of(request.user)[:50]
    return render(request, "games/home.html", {"games": games, "games_offered": _games_offered()})


def _games_offered() -> str:
    """The catalogue's games in one phrase: "Piratz (2 to 4 players) and Rattenscharf (2
    players)", so the home page introduces every game the service offers, not one."""
    names = [
        _("%(game)s (%(counts)s players)")
        % {"game": spec.name, "counts": player_counts_text(spec.rules)}
        for spec in all_specs()
    ]
    if len(names) < 2:
        return "".join(names)
    return _("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


# HEAD like GET: mail scanners check links with it, and a 405 looks like a broken link.
@require_http_methods(["GET", "HEAD", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """An emailed invitation: GET only shows it (mail scanners fetch links); POST answers it.

    The signed token is the proof that the visitor received the invitation, so no
    login is needed to accept or decline.
    """
    try:
        game, seat = actions.read_invitation_token(token)
    except actions.ServiceError as invalid:
        return render(request, "games/invitation_invalid.html", {"error": invalid}, status=404)
    # Invitation tokens name a seated person (invitation_token); a bot's seat has none.
    assert seat.user is not None

    error = None
    if request.method == "POST":
        decision = request.POST.get("decision")
        try:
            if decision == "accept":
                # The page's client seed field (static/js/client_seed.js fills it).
                seed = request.POST.get("client_seed", "").strip() or None
                game = actions.do_accept_invitation(game.id, seat.user, client_seed=seed)
            elif decision == "decline":
                game = actions.do_decline_invitation(game.id, seat.user)
            else:
                error = _("Choose accept or decline.")
        except actions.ServiceError as refused:
            error = refused.detail
        seat.refresh_from_db()

    # Past its expiry an invitation is closed although the sweep may not have cancelled
    # the game yet: no Accept button under an "open until" time in the past.
    expired = game.invitation_has_expired(timezone.now())
    context = {
        "game": game,
        "game_name": game.rules.NAME,
        "seat": seat,
        "seats": game.seats.select_related("user"),
        # A time bank or daily deadline in words ("" for hours per turn).
        "clock_note": clock_words(game),
        "error": error,
        "expired": expired,
        "can_answer": game.status == GameStatus.INVITED and not seat.accepted and not expired,
    }
    return render(request, "games/invitation.html", context, status=400 if error else 200)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def game_entry(request: HttpRequest, game_id, token: str) -> HttpResponse:
    """The signed link of a game email: GET shows one button and changes nothing (mail
    scanners open links); its POST (CSRF-protected) signs in as the link's player for this
    game only (``accounts.game_scope.sign_in_for_game``) and goes to the game page.
    Refused for a tampered link, once the game has ended, and once the link has expired
    (then the page offers a login link, which signs in fully)."""
    try:
        seat = links.read_entry_token(game_id, token)
    except actions.ServiceError as error:
        status = {"game_not_active": 410, "link_expired": 410, "suspended": 403}.get(
            error.code, 404
        )
        game_url = reverse("games:game", args=[game_id])
        context = {
            "error": error,
            "game_url": game_url,
            "login_form": LoginLinkRequestForm(initial={"next": game_url}),
        }
        return render(request, "games/enter.html", context, status=status)
    if request.method == "POST":
        sign_in_for_game(request, seat.user, seat.game_id)
        return redirect("games:game", game_id=seat.game_id)
    others = [s.public_name for s in seat.game.seats.select_related("user") if s != seat]
    context = {"game": seat.game, "others": others, "link_player": seat.user.public_name}
    # A forwarded email's link, opened where someone else is signed in: its button would
    # sign them out, so the page names both and asks first.
    if request.user.is_authenticated and request.user.pk != seat.user_id:
        context["signed_in_as"] = request.user.public_name
    return render(request, "games/enter.html", context)


@never_cache
@require_http_methods(["GET", "HEAD"])
def game_page(request: HttpRequest, game_id) -> HttpResponse:
    """The table as the reader may see it: a player with their moves as forms (they post to
    ``play_move``), staff, or anyone watching a public game (``games.watching``); 404 for
    other people, and a sign-in first for an anonymous visitor of a game that is not public.

    Drawn only from ``Game.table_view`` for the reader's seat (a spectator's view without
    one: no forms) and ``public_log`` (rules P23; a watcher sees less of a blind game's
    log), through ``games.table``, by the game's own template (``games/<game>/table.html``).
    """
    try:
        viewing = watching.get_viewing(request.user, game_id)
    except actions.ServiceError:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise Http404("No such game, or you are not a player of it.") from None
    game, seat = viewing.game, viewing.seat
    seats = sorted(game.seats.all(), key=lambda s: s.seat)
    # The reader's own settings came with their seat (SEATS_WITH_USERS): no extra query. A
    # watcher who is not signed in reads the moments in UTC, as a new person's settings do.
    reader = next((s.user for s in seats if s.seat == seat), None) or request.user
    zone = settings_for(reader).zone if reader.is_authenticated else UTC_ZONE
    context = {
        "game": game,
        "seats": seats,
        "player_names": ", ".join(s.public_name for s in seats),
        # What the short labels' words mean ("· bot"), once: the waiting page's legend.
        "seat_notes": [note for s in seats if (note := seat_names.seat_note(s))],
        "game_name": game.rules.NAME,
        "reader_seat": seat,
        "watcher": viewing.watcher,
        "table": table.table_context(game, seat, zone, watcher=viewing.watcher),
        "table_template": table.template_for(game),
        "refresh_every_seconds": REFRESH_EVERY_SECONDS,
        # The waiting page (games/_waiting.html): when the invitations expire, as the
        # table says its deadline (the reader's zone), and whether that moment has passed.
        "invitation_expires": format_moment(game.invitation_expires_at, zone),
        "invitation_expired": game.invitation_has_expired(timezone.now()),
        # Playing together: the paused banner, the host's chair, resign, play again.
        "together": together_context(game, seats, seat, request.user, zone),
        # "Next game": another game waits for the reader's move while this one does not.
        "next_game": _next_game(request, game, seat),
    }
    if seat is not None and game.is_active:
        presence.mark_live(game.id, seat)  # the player is at the table: games.presence
    # Not for a resigned seat: its bot plays it to the end (P26), there is nothing to take back.
    stand_in = next((s for s in seats if s.seat == seat and s.is_stand_in and not s.resigned), None)
    if stand_in is not None and game.is_active:
        # A bot stands in for the reader: the page offers their seat back (one click).
        context["stand_in_level"] = seat_names.level_word(stand_in.bot)
    return render(request, "games/game.html", context)


def _next_game(request: HttpRequest, game: Game, seat: int | None) -> Game | None:
    """The game the table's "Next game" button leads to: where it is the reader's turn with
    the nearest deadline, other than this one; None while this table waits for them (or
    for a reader without a seat). One query."""
    user = request.user
    if seat is None or not user.is_authenticated or (game.is_active and game.current_seat == seat):
        return None
    return queries.next_game_waiting_on(user, excluding=game.id)


# How often an open table asks whether the game moved on while its live stream is broken
# (static/js/table.js, games.views.live): the answer is one indexed query.
REFRESH_EVERY_SECONDS = 5


@require_POST
def play_move(request: HttpRequest, game_id) -> HttpResponse:
    """A move form of the table: play it, then back to the table (POST-redirect-GET).

    A refused move (stale ``version``, not the poster's turn, illegal, game over) changes
    nothing and is told as a message above the current table, never as an error page.
    Outsiders get 404 like the table itself. A signed-out poster (their session ended)
    is sent to sign in and then to the table, not back to this POST-only address.
    """
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("games:game", args=[game_id]))
    game = _visible_game_or_404(request.user, game_id)
    shown_version = game.version
    try:
        version, action = table.parse_move(game, request.POST)
        actions.do_play_move(game_id, request.user, version, action)
    except actions.ServiceError as refused:
        if refused.code == "not_found":
            raise Http404(refused.detail) from None
        messages.error(request, _refusal_message(refused))
    else:
        if version != shown_version:
            # Accepted from an older version: do_play_move recognised the move already
            # played from that version (a second click, another tab) and played nothing.
            messages.warning(
                request,
                _(
                    "That move had already been played (the form was sent twice), so it "
                    "was not played again. Here is the table as it is now."
                ),
            )
        else:
            messages.success(request, _("Your move was played."))
    return redirect("games:game", game_id=game_id)


@require_POST
def take_back_seat(request: HttpRequest, game_id) -> HttpResponse:
    """The table's "Take my seat back" button: the stand-in bot leaves the reader's seat
    (``actions.do_take_back_seat``), then back to the table (POST-redirect-GET)."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("games:game", args=[game_id]))
    try:
        actions.do_take_back_seat(game_id, request.user)
    except actions.ServiceError as refused:
        if refused.code == "not_found":
            raise Http404(refused.detail) from None
        messages.error(request, refused.detail)
    else:
        messages.success(request, _("Your seat is yours again: the bot has left it."))
    return redirect("games:game", game_id=game_id)


def _refusal_message(refused: actions.ServiceError) -> str:
    """What a refused move form tells its player; the table below it is the current one."""
    if refused.code == "stale_version":
        return _(
            "The table changed before your move arrived (another move was played, or the "
            "form was sent twice), so nothing was played. Here is the table as it is now."
        )
    if refused.code == "not_your_turn":
        return _("It is not your turn, so nothing was played. Here is the table as it is now.")
    return refused.detail


@never_cache
@require_http_methods(["GET", "HEAD"])
def game_version(request: HttpRequest, game_id) -> JsonResponse:
    """``{"version": n, "status": "active"}`` for an open table whose live stream is broken
    (static/js/table.js polls it then; ``games.views.live`` is the stream).

    One indexed query (the reader's seat joined to its game; staff without a seat: the
    game's primary key), never cached. The same access as the table: anyone for a public
    game (``games.watching``); else 404 for outsiders and missing games, 401 (not a login
    redirect: a script asks) for anonymous visitors. Only a visible tab asks, so a
    player's asking marks their seat live (``games.presence``: their turn email waits
    while they are at the table); a watcher's marks nothing.
    """
    user = request.user
    if not user.is_authenticated:
        watched = _watched_row(game_id)
        if watched is None:
            return JsonResponse({"code": "not_authenticated"}, status=401)
        return JsonResponse(watched)
    seat = (
        Seat.objects.filter(game_id=game_id, user=user)
        .values("seat", "game__version", "game__status")
        .first()
    )
    if seat is not None:
        if seat["game__status"] == GameStatus.ACTIVE:
            presence.mark_live(game_id, seat["seat"])
        return JsonResponse({"version": seat["game__version"], "status": seat["game__status"]})
    row = Game.objects.filter(id=game_id).values("version", "status").first()
    if row is not None and user.is_staff:
        return JsonResponse(row)
    watched = _watched_row(game_id)
    if watched is None:
        return JsonResponse({"code": "not_found"}, status=404)
    return JsonResponse(watched)


def _watched_row(game_id) -> dict | None:
    """``{"version", "status"}`` of game ``game_id`` if anyone may watch it, else None."""
    row = (
        Game.objects.filter(id=game_id, public=True, status__in=watching.WATCHABLE)
        .values("version", "status")
        .first()
    )
    return None if row is None else dict(row)


def _visible_game_or_404(user, game_id) -> Game:
    try:
        return queries.get_visible_game(user, game_id)
    except actions.ServiceError:
        raise Http404("No such game, or you are not a player of it.") from None
