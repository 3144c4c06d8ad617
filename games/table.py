"""The game page's table, for any game: which template draws it and what it is given.

The game's spec (``games.catalogue``) decides everything per game: ``table_template``
draws the table, ``table_context(game, seat, zone, *, watcher) -> dict`` builds its ``table``
context (``watcher``: the viewer watches a public game; the log's rule, ``games.movelog``)
and ``parse_table_move(data) -> (version, action)`` reads its move forms.

A game without them gets the fallback: ``games/any_game/table.html`` fed by
``basic_context`` (the view, the players, whose turn and the deadline), which lists the
view's keys and offers each legal action as a button, read back by
``parse_any_game_move``.

Everything here is built from ``Game.table_view(seat)`` and the public log, never from the
secret state, so a page shows nothing the API would not.
"""

import json

from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ServiceError
from games import deadlines, describe
from games.catalogue import spec_for
from games.clocks import bank_words, clock_words
from games.models import Game
from games.seat_names import person_name, seat_note

ANY_GAME_TEMPLATE = "games/any_game/table.html"


def template_for(game: Game) -> str:
    """The template that draws ``game``'s table (its spec's, else ``ANY_GAME_TEMPLATE``)."""
    return spec_for(game.game).table_template or ANY_GAME_TEMPLATE


def table_context(game: Game, seat: int | None, zone, *, watcher: bool = False) -> dict:
    """What ``template_for(game)`` draws for the viewer at ``seat`` (None: a spectator;
    ``watcher``: a spectator of a public game, neither a player nor staff); ``zone`` is the
    viewer's time zone. Empty before the game starts. ``game`` must carry its seats as
    ``queries.SEATS_WITH_USERS`` prefetches them."""
    build = spec_for(game.game).table_context or any_game_context
    return build(game, seat, zone, watcher=watcher)


def parse_move(game: Game, data) -> tuple[int, dict]:
    """``(version, action)`` from a move form of ``game``'s table (its spec's
    ``parse_table_move``, else ``parse_any_game_move``); ``ServiceError("invalid")`` for a
    form no table of this game builds."""
    parse = spec_for(game.game).parse_table_move or parse_any_game_move
    return parse(data)


def any_game_context(game: Game, seat: int | None, zone, *, watcher: bool = False) -> dict:
    """The fallback table's context: ``basic_context`` plus ``rows`` (the view as ``key``,
    ``value`` in the game's words) and ``moves`` (each legal action as ``label`` and the
    ``value`` its button posts), none while a bot plays the viewer's seat. It shows no
    log, so a ``watcher`` sees what any spectator does."""
    context = basic_context(game, seat, zone)
    if not context:
        return {}
    view = context["view"]
    words = describe.words_for(game.game)
    context["rows"] = words.describe_table(view, context["names"])["rows"]
    legal = [] if context["bot_plays"] else view.get("legal_actions", [])
    context["moves"] = [
        {"label": describe.generic.action_text(action), "value": json.dumps(action)}
        for action in legal
    ]
    if view.get("result"):
        context["result"] = words.describe_result(view["result"], context["names"])
    return context


def parse_any_game_move(data) -> tuple[int, dict]:
    """``(version, action)`` from the fallback table's form: ``version`` and ``move``, one
    legal action as JSON (the engine judges whether it is legal now)."""
    try:
        version = int(data.get("version", ""))
        action = json.loads(data.get("move", ""))
    except ValueError:
        action, version = None, -1
    if version < 0 or not isinstance(action, dict):
        raise ServiceError(
            "invalid", _("That move form was incomplete, so nothing was played. Choose again.")
        )
    return version, action


def basic_context(game: Game, seat: int | None, zone) -> dict:
    """The parts every table shows, from the view alone: ``view``, ``players`` (seat,
    name: the short label, note: what its word means, is_viewer, is_current,
    vacation_until), ``seat_notes`` (the legend: each note once), ``current_name`` (the
    person, for sentences), ``deadline``
    (words in ``zone``), ``bot_plays`` (a bot stands in for the viewer: offer no moves),
    ``bot_to_move`` (a bot plays the seat to move: it moves within moments, so the
    deadline is no news), ``clock_note`` (a time bank or daily deadline in a sentence)
    and, in a time bank game, ``your_bank`` and each player's ``bank`` in words (the
    seat to move's less what its turn has used so far)."""
    view = game.table_view(seat)
    if view is None:
        return {}
    seats = sorted(game.seats.all(), key=lambda s: s.seat)
    names = describe.Names([s.public_name for s in seats], seat, [person_name(s) for s in seats])
    current = view.get("current_seat")
    players = []
    now = timezone.now()
    banks = {}
    for seat_row in seats:
        left = deadlines.bank_left(game, seat_row, now) if game.is_active else None
        banks[seat_row.seat] = "" if left is None else bank_words(int(left.total_seconds()))
    for seat_row in seats:
        until = getattr(seat_row, "on_vacation_until", None)
        players.append(
            {
                "seat": seat_row.seat,
                "name": seat_row.public_name,
                # What the name's word means ("· bot"): its tooltip, and the legend's line.
                "note": seat_note(seat_row),
                "is_viewer": seat_row.seat == seat,
                "is_current": seat_row.seat == current,
                "vacation_until": describe.format_moment(until, zone) if until else "",
                "bank": banks[seat_row.seat],
            }
        )
    return {
        "view": view,
        "players": players,
        "names": names,
        # The short labels say the note once, beside the names (``seat_notes``): a sentence
        # names the person ("It is Carla's turn: the bot is about to move").
        "seat_notes": [p["note"] for p in players if p["note"]],
        "current_name": None if current is None else names.person(current),
        "deadline": describe.format_moment(game.deadline, zone) if game.is_active else "",
        # While a bot stands in for the viewer, it moves for them: no forms (they take the
        # seat back first, games.views.table.take_back_seat).
        "bot_plays": any(s.seat == seat and s.bot for s in seats),
        "bot_to_move": game.is_active and any(s.seat == current and s.bot for s in seats),
        "your_bank": banks.get(seat, "") if seat is not None else "",
        "clock_note": clock_words(game),
    }
