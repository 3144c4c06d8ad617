"""Watching games: the page of public games (``/games/public/``) and the host's choice of who
watches (public or not, table talk open to spectators or not), posted from the table.

The table itself, as a watcher sees it, is ``games.views.table.game_page``; who may watch
is ``games.watching``.
"""

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import ServiceError
from games import watching
from games.actions.spectators import do_set_spectators
from games.catalogue import all_specs
from games.models import Game, GameStatus


def public_game_row(game: Game) -> dict:
    """One public game as the page lists it: ``game``, its ``players`` (the short labels,
    in seat order), ``round`` (None before the first), ``to_move`` (whose turn: a name, or
    None) and ``winners`` (the winners' names once it finished; empty otherwise)."""
    seats = sorted(game.seats.all(), key=lambda s: s.seat)
    names = {s.seat: str(s.public_name) for s in seats}
    playing = game.status == GameStatus.ACTIVE
    winners = (game.result or {}).get("winners", []) if game.status == GameStatus.FINISHED else []
    return {
        "game": game,
        "players": [names[s.seat] for s in seats],
        "round": game.round,
        "to_move": names.get(game.current_seat)
        if playing and game.current_seat is not None
        else None,
        "winners": [names[seat] for seat in winners if seat in names],
    }


@require_http_methods(["GET", "HEAD"])
def public_games(request: HttpRequest) -> HttpResponse:
    """The public games, by game: those being played now (the latest move first) and those
    that ended lately (``watching.RECENTLY_ENDED_DAYS``), at most ``SHOWN_PER_LIST`` of each,
    each with its players, round and a link to watch it. Anyone, signed in or not."""
    shown = watching.SHOWN_PER_LIST
    sections = []
    for spec in all_specs():
        playing = list(watching.public_games(kind=spec.kind)[:shown])
        ended = list(watching.public_games(kind=spec.kind, ended=True)[:shown])
        sections.append(
            {
                "kind": spec.kind,
                "name": spec.name,
                "playing": [public_game_row(game) for game in playing],
                "ended": [public_game_row(game) for game in ended],
            }
        )
    context = {
        "sections": sections,
        "recent_days": watching.RECENTLY_ENDED_DAYS,
        "shown": shown,
    }
    return render(request, "games/watch.html", context)


def _choice(value: str | None) -> bool | None:
    """A posted ``true``/``false`` as a boolean; None for anything else (not asked)."""
    return {"true": True, "false": False}.get(value or "")


@require_POST
def set_spectators(request: HttpRequest, game_id) -> HttpResponse:
    """The host's chair's "Make the game public/private" and "Open/Close the table talk to
    spectators" (``public`` or ``talk_public``: ``true`` or ``false``, with the ``version``
    the page showed): ``do_set_spectators``, then back to the table (POST-redirect-GET)."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("games:game", args=[game_id]))
    public = _choice(request.POST.get("public"))
    talk_public = _choice(request.POST.get("talk_public"))
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = None
    if version is None or (public is None and talk_public is None):
        messages.error(request, _("The form was incomplete, so nothing changed."))
        return redirect("games:game", game_id=game_id)
    try:
        game = do_set_spectators(
            game_id, request.user, public=public, talk_public=talk_public, version=version
        )
    except ServiceError as refused:
        if refused.code == "not_found":
            raise Http404(refused.detail) from None
        messages.error(request, refused.detail)
    else:
        messages.success(request, _told(game))
    return redirect("games:game", game_id=game_id)


def _told(game: Game) -> str:
    """What the host is told after choosing who watches ``game``."""
    if not game.public:
        return _("The game is private: only its players see it.")
    if game.talk_public:
        return _("The game is public, and spectators read its table talk.")
    return _("The game is public: anyone may watch it. Its table talk stays the players'.")
