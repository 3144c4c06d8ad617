"""The game page's table, for any game: which template draws it and what it is given.

One lookup by the game's name (``Game.game``) decides everything per game:

- the template ``templates/games/<game>/table.html`` draws the table;
- the module ``games.tables.<game>``, if there is one, builds that template's ``table``
  context (``table_context(game, seat, zone) -> dict``) and reads the game's move forms
  (``parse_move(data) -> (version, action)``).

A game without such a module gets ``basic_context`` (the view, the players, whose turn
and the deadline) and no move forms: adding a game means its rules package and its table
template, and a ``games/tables/<game>.py`` only once its page offers moves.

Everything here is built from ``Game.table_view(seat)`` and the public log, never from the
secret state, so a page shows nothing the API would not.
"""

from importlib import import_module
from types import ModuleType

from django.utils.translation import gettext as _

from core.errors import ServiceError
from games import describe
from games.models import Game


def template_for(game: Game) -> str:
    """The template that draws ``game``'s table (``games/<game>/table.html``)."""
    return f"games/{game.game}/table.html"


def module_for(game_name: str) -> ModuleType | None:
    """``games.tables.<game_name>``, or None when the game has no table module."""
    path = f"games.tables.{game_name}"
    try:
        return import_module(path)
    except ModuleNotFoundError as missing:
        if missing.name != path:
            raise  # the module exists but something it imports does not
        return None


def table_context(game: Game, seat: int | None, zone) -> dict:
    """What ``template_for(game)`` draws for the viewer at ``seat`` (None: a spectator);
    ``zone`` is the viewer's time zone. Empty before the game starts. ``game`` must carry
    its seats as ``queries.SEATS_WITH_USERS`` prefetches them."""
    module = module_for(game.game)
    if module is not None:
        return module.table_context(game, seat, zone)
    return basic_context(game, seat, zone)


def parse_move(game: Game, data) -> tuple[int, dict]:
    """``(version, action)`` from a move form of ``game``'s table (its module's
    ``parse_move``); ``ServiceError("invalid")`` for a form no table of this game builds."""
    module = module_for(game.game)
    if module is None or not hasattr(module, "parse_move"):
        raise ServiceError("invalid", _("This game's page has no move forms."))
    return module.parse_move(data)


def basic_context(game: Game, seat: int | None, zone) -> dict:
    """The parts every table shows, from the view alone: ``view``, ``players`` (seat,
    name, is_viewer, is_current, vacation_until), ``current_name``, ``deadline`` (words
    in ``zone``) and ``bot_plays`` (a bot stands in for the viewer: offer no moves)."""
    view = game.table_view(seat)
    if view is None:
        return {}
    seats = sorted(game.seats.all(), key=lambda s: s.seat)
    names = describe.Names([s.public_name for s in seats], seat)
    current = view.get("current_seat")
    players = []
    for seat_row in seats:
        until = getattr(seat_row, "on_vacation_until", None)
        players.append(
            {
                "seat": seat_row.seat,
                "name": seat_row.public_name,
                "is_viewer": seat_row.seat == seat,
                "is_current": seat_row.seat == current,
                "vacation_until": describe.format_moment(until, zone) if until else "",
            }
        )
    return {
        "view": view,
        "players": players,
        "names": names,
        "current_name": None if current is None else names.name(current),
        "deadline": describe.format_moment(game.deadline, zone) if game.is_active else "",
        # While a bot stands in for the viewer, it moves for them: no forms (they take the
        # seat back first, games.views.take_back_seat).
        "bot_plays": any(s.seat == seat and s.bot for s in seats),
    }
