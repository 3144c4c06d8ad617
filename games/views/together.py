"""Playing together on the table page: resign, the host's chair (pause, resume, extend the
turn, hand an absent player's seat to a bot) and "Play again" (docs/api.md "Playing together").

Each view is a POST from a form of the table (or My games): it calls its action in
``games.actions.together`` and goes back to the table (POST-redirect-GET), telling the
outcome as a message; a refusal is a sentence above the table and changed nothing.
``together_context`` gives the table page what these forms need.
"""

from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from accounts.models import User
from core.errors import ServiceError
from games import chair, seat_names
from games.actions import substitutes
from games.actions.together import (
    MAX_EXTEND_HOURS,
    MAX_REASON_LENGTH,
    MIN_EXTEND_HOURS,
    do_extend_turn,
    do_host_stand_in,
    do_pause_game,
    do_rematch,
    do_resign,
    do_resume_game,
)
from games.describe import format_moment
from games.models import Game, GameStatus, Seat, SeatOffer

# The host's choices of extra hours for one turn (within 1-168, docs/api.md "Playing together").
EXTEND_HOURS_CHOICES = (1, 2, 4, 8, 12, 24, 48, 72, 96, 120, 144, 168)
EXTEND_HOURS_DEFAULT = 24
assert all(MIN_EXTEND_HOURS <= h <= MAX_EXTEND_HOURS for h in EXTEND_HOURS_CHOICES)


def together_context(
    game: Game, seats: list[Seat], reader_seat: int | None, user, zone: ZoneInfo
) -> dict:
    """What the table page's playing-together parts need, for ``user`` at ``reader_seat``
    (None: staff without a seat, who get none of the forms). From the game row and its
    prefetched seats only: no query.

    ``paused``: the banner everyone sees (``until``, ``reason``) or None; ``chair``: the
    host's forms, only for the player who holds the host's chair of an active game
    (``games.chair``: the host, or after the host left it the next person still in it;
    ``successor`` then); ``can_resign``;
    ``can_rematch``; ``resigned_to_mark``: resigned seats whose name does not say so
    already (``seat_names`` names a resigned seat while its bot plays it).
    """
    own = next((s for s in seats if s.seat == reader_seat), None)
    active = game.status == GameStatus.ACTIVE
    context: dict = {
        "paused": None,
        "chair": None,
        "can_resign": active and own is not None and not own.resigned,
        "can_rematch": own is not None and game.status in (GameStatus.FINISHED, GameStatus.ABORTED),
        "resigned_to_mark": [s.seat for s in seats if s.resigned and not s.bot],
        "two_players": len(seats) == 2,
    }
    if active and game.is_paused:
        context["paused"] = {
            "until": format_moment(game.paused_until, zone),
            "reason": game.pause_reason,
        }
    holder = chair.chair_seat(game, seats) if active and own is not None else None
    if own is not None and holder is not None and holder.seat == own.seat:
        current = next((s for s in seats if s.seat == game.current_seat), None)
        extended = (
            game.host_extended_turn is not None and game.host_extended_turn == game.turn_started_at
        )
        context["chair"] = {
            "successor": game.host_id != user.id,
            "paused": game.is_paused,
            "extended": extended,
            "bot_to_move": current is not None and bool(current.bot),
            "hours": EXTEND_HOURS_CHOICES,
            "default_hours": EXTEND_HOURS_DEFAULT,
            "reason_max": MAX_REASON_LENGTH,
            # Absent players the host may hand to a bot: people, playing their seat.
            "absent": [
                {"seat": s.seat, "name": s.public_name}
                for s in seats
                if s.user_id is not None and s.user_id != user.id and not s.bot and not s.resigned
            ],
            # Seats a stand-in plays for an absent player: offered to a substitute, or not
            # yet (one query, only when there is such a seat).
            "offerable": _offerable(game, seats),
        }
    return context


def _offerable(game: Game, seats: list[Seat]) -> list[dict]:
    """The seats the chair may offer to a substitute (``substitutes.offerable_seats``), each
    with its open offer, if any: ``{"seat", "label", "name", "offer"}``."""
    rows = substitutes.offerable_seats(game, seats)
    if not rows:
        return []
    offers = {
        offer.seat: offer
        for offer in SeatOffer.objects.filter(
            game=game, seat__in=[row.seat for row in rows], closed=SeatOffer.Closed.OPEN
        )
    }
    return [
        {
            "seat": row.seat,
            "label": row.seat + 1,
            "name": row.user.public_name if row.user is not None else row.public_name,
            "offer": offers.get(row.seat),
        }
        for row in rows
    ]


def _back_to_table(game_id) -> HttpResponse:
    return redirect("games:game", game_id=game_id)


def poster_or_none(request: HttpRequest) -> User | None:
    """The signed-in poster, or None: then the view sends them to sign in and on to the
    table (their session ended), not back to this POST-only address."""
    user = request.user
    return user if user.is_authenticated else None


def to_login_then_table(game_id) -> HttpResponse:
    """To the sign-in page, and from there back to the table of ``game_id``."""
    return redirect_to_login(reverse("games:game", args=[game_id]))


def tell_refusal(request: HttpRequest, refused: ServiceError) -> None:
    """A refusal as a message above the table; ``not_found`` is the table's own 404."""
    if refused.code == "not_found":
        raise Http404(refused.detail)
    messages.error(request, refused.detail)


def int_or_none(value) -> int | None:
    """``value`` as a whole number, or None when it is none (a form field absent or bad)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@require_POST
def resign(request: HttpRequest, game_id) -> HttpResponse:
    """The table's "Yes, resign" (after its confirmation step): ``do_resign`` from the
    version the page showed. A stale version changes nothing and says so."""
    if (user := poster_or_none(request)) is None:
        return to_login_then_table(game_id)
    version = int_or_none(request.POST.get("version"))
    if version is None:
        messages.error(request, _("The form was incomplete, so nothing changed."))
        return _back_to_table(game_id)
    try:
        game = do_resign(game_id, user, version)
    except ServiceError as refused:
        if refused.code == "stale_version":
            messages.error(
                request,
                _(
                    "The table changed before your resignation arrived, so you have not "
                    "resigned. Look at the table as it is now and decide again."
                ),
            )
        else:
            tell_refusal(request, refused)
    else:
        if game.status == GameStatus.ACTIVE:
            messages.success(request, _("You have resigned: a bot plays your seat to the end."))
        else:
            messages.success(request, _("You have resigned, and the game is over."))
    return _back_to_table(game_id)


@require_POST
def pause(request: HttpRequest, game_id) -> HttpResponse:
    """The host's "Pause the game", with an optional reason every player is told."""
    if (user := poster_or_none(request)) is None:
        return to_login_then_table(game_id)
    try:
        do_pause_game(game_id, user, request.POST.get("reason", ""))
    except ServiceError as refused:
        tell_refusal(request, refused)
    else:
        messages.success(request, _("The game is paused: its clock stands still."))
    return _back_to_table(game_id)


@require_POST
def resume(request: HttpRequest, game_id) -> HttpResponse:
    """The host's "Resume the game": the clock runs again."""
    if (user := poster_or_none(request)) is None:
        return to_login_then_table(game_id)
    try:
        do_resume_game(game_id, user)
    except ServiceError as refused:
        tell_refusal(request, refused)
    else:
        messages.success(request, _("The game runs again: its clock is back on."))
    return _back_to_table(game_id)


@require_POST
def extend(request: HttpRequest, game_id) -> HttpResponse:
    """The host's "Extend the turn" by the hours chosen (once per turn)."""
    if (user := poster_or_none(request)) is None:
        return to_login_then_table(game_id)
    # A missing or garbled number (0) is the action's own "invalid" refusal.
    hours = int_or_none(request.POST.get("hours")) or 0
    try:
        do_extend_turn(game_id, user, hours)
    except ServiceError as refused:
        tell_refusal(request, refused)
    else:
        messages.success(
            request,
            ngettext(
                "The turn has %(hours)d more hour.", "The turn has %(hours)d more hours.", hours
            )
            % {"hours": hours},
        )
    return _back_to_table(game_id)


@require_POST
def hand_to_bot(request: HttpRequest, game_id) -> HttpResponse:
    """The host's "Hand <player>'s seat to a bot" for an absent player."""
    if (user := poster_or_none(request)) is None:
        return to_login_then_table(game_id)
    seat = int_or_none(request.POST.get("seat"))
    version = int_or_none(request.POST.get("version"))
    if seat is None or version is None:
        messages.error(request, _("The form was incomplete, so nothing changed."))
        return _back_to_table(game_id)
    try:
        game = do_host_stand_in(game_id, user, seat, version)
    except ServiceError as refused:
        tell_refusal(request, refused)
    else:
        row = next(s for s in game.seats.all() if s.seat == seat)
        name = row.user.public_name if row.user is not None else row.public_name
        messages.success(
            request,
            _("A %(level)s bot now plays %(name)s's seat; they can take it back.")
            % {"level": seat_names.level_word(row.bot), "name": name},
        )
    return _back_to_table(game_id)


@require_POST
def rematch(request: HttpRequest, game_id) -> HttpResponse:
    """ "Play again" after a finished or aborted game: ``do_rematch``, then the new game's
    table (the same game for everyone who asks again)."""
    if (user := poster_or_none(request)) is None:
        return to_login_then_table(game_id)
    try:
        new, created = do_rematch(game_id, user)
    except ServiceError as refused:
        tell_refusal(request, refused)
        return _back_to_table(game_id)
    if created:
        messages.success(request, _("A new game with the same players: they are invited by email."))
    return _back_to_table(new.id)
