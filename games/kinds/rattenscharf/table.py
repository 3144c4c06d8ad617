"""The Rattenscharf table page's content: the board, the hand, the scores and the viewer's
legal placements with what each would do, ready for the templates
``games/kinds/rattenscharf/templates/games/rattenscharf/``.

Built only from ``Game.table_view(seat)`` (R31: public apart from the pile's order, which
it does not hold) and ``public_log``, so the page shows nothing the API would not. The
previews come from ``games.kinds.rattenscharf.rules.preview``, which reads the view's board only;
symbols, colours, strips, scoring, the result and the move log are told in
``games.kinds.rattenscharf.words``'s words, as in the emails and the replay.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.errors import ServiceError
from games.kinds.rattenscharf import words
from games.kinds.rattenscharf.rules.board import laid_fields
from games.kinds.rattenscharf.rules.engine import RAT_LIMIT
from games.kinds.rattenscharf.rules.preview import previews
from games.kinds.rattenscharf.rules.strips import RAT_SEAT, SPICE_SEAT, START
from games.models import Game
from games.movelog import log_to_describe
from games.table import basic_context

# The page's own words: the move form's directions. Symbols, colours, strips, scoring
# and the result are told in ``games.kinds.rattenscharf.words``'s words, as everywhere.
DIRECTION_WORDS = {"h": gettext_lazy("across"), "v": gettext_lazy("down")}

# The move form's fields besides ``version``: the strip, and where it goes as one value
# "x,y,orientation,flip" (flip 0 or 1), so that one select of a form is one legal action.
PLACEMENT_SEPARATOR = ","


def symbol_id(symbol: str) -> str:
    """The id of the symbol's drawing (``games/rattenscharf/symbols.html``)."""
    return "rs-" + symbol.replace(":", "-")


def placement_value(action: dict) -> str:
    """The form value of a ``place`` action's position (see ``parse_move``)."""
    return PLACEMENT_SEPARATOR.join(
        (str(action["x"]), str(action["y"]), action["orientation"], "1" if action["flip"] else "0")
    )


def parse_move(data) -> tuple[int, dict]:
    """``(version, action)`` from a placement form: ``version``, ``strip`` and
    ``placement`` (``"x,y,h|v,0|1"``) make R28's action. ``ServiceError("invalid")`` for a
    form the page does not build; whether the placement is legal is the engine's call."""
    try:
        version = int(data.get("version", ""))
        if version < 0 or data.get("action", "place") != "place":
            raise ValueError("version")
        x, y, orientation, flip = data.get("placement", "").split(PLACEMENT_SEPARATOR)
        if flip not in ("0", "1") or orientation not in DIRECTION_WORDS:
            raise ValueError("placement")
        action = {
            "action": "place",
            "strip": int(data.get("strip", "")),
            "x": int(x),
            "y": int(y),
            "orientation": orientation,
            "flip": flip == "1",
        }
    except ValueError:
        raise ServiceError(
            "invalid", _("That move form was incomplete, so nothing was played. Choose again.")
        ) from None
    return version, action


def preview_words(preview: dict, colours: list[str]) -> str:
    """What a placement would do, in words: each colour's points and visible rats."""
    sentence, colour_words = _preview_sentence(colours)
    return sentence % {**colour_words, **_preview_values(preview)}


def _preview_sentence(colours: list[str]) -> tuple[str, dict]:
    """``preview_words``'s sentence and its colours' words, in the active language."""
    sentence = _(
        "points %(red)s %(red_points)d, %(green)s %(green_points)d; "
        "rats visible after: %(red)s %(red_rats)d, %(green)s %(green_rats)d"
    )
    return sentence, {"red": words.colour_name(colours[0]), "green": words.colour_name(colours[1])}


def _preview_values(preview: dict) -> dict:
    return {
        "red_points": preview["points"][0],
        "green_points": preview["points"][1],
        "red_rats": preview["rats"][0],
        "green_rats": preview["rats"][1],
    }


def _loses(view: dict, preview: dict) -> bool:
    """Would this placement, as the turn's last, leave the mover with 3 rats (R22, R23)?"""
    mover = view["current_seat"]
    return len(view["hand"]) == 1 and preview["rats"][mover] >= RAT_LIMIT


def placement_choices(view: dict, legal: list[dict], found: list[dict]) -> list[dict]:
    """Per strip in the hand, its legal placements (``legal``, with their ``found``
    previews) as one select's options: each option is one legal action, so a form built
    from a choice can only post a legal move."""
    by_strip: dict[int, list] = {strip["id"]: [] for strip in view["hand"]}
    # A late table has hundreds of legal placements: each sentence and word is translated
    # once here, not once a placement (the catalogue lookups were most of the page's time).
    label_sentence = _("from (%(x)d, %(y)d) %(direction)s: %(fields)s — %(preview)s")
    loses_words = " — " + _("you would lose to your rats")
    directions = {key: str(word) for key, word in DIRECTION_WORDS.items()}
    preview_sentence, colour_words = _preview_sentence(view["colours"])
    for action, preview in zip(legal, found, strict=True):
        fields = laid_fields(action["strip"], action["flip"])
        label = label_sentence % {
            "x": action["x"],
            "y": action["y"],
            "direction": directions[action["orientation"]],
            "fields": words.field_names(fields),
            "preview": preview_sentence % {**colour_words, **_preview_values(preview)},
        }
        if _loses(view, preview):
            label += loses_words
        by_strip[action["strip"]].append({"value": placement_value(action), "label": label})
    return [
        {**_strip(strip), "options": by_strip[strip["id"]]}
        for strip in view["hand"]
        if by_strip[strip["id"]]
    ]


def _field(symbol: str) -> dict:
    return {"symbol": symbol, "id": symbol_id(symbol), "word": words.symbol_name(symbol)}


def _strip(strip: dict) -> dict:
    """A view's strip (``{"id", "fields"}``) as ``strip.html`` draws it."""
    return {
        "id": strip["id"],
        "fields": [_field(symbol) for symbol in strip["fields"]],
        "words": words.field_names(strip["fields"]),
    }


def play_data(view: dict, legal: list[dict], found: list[dict]) -> dict:
    """What the script ``js/rattenscharf.js`` needs to offer the legal placements on the board:
    per strip, per window ``"x,y,o"``, per flip (0, 1): ``[red points, green points, red
    rats, green rats, loses]``; the strips' fields; the words it shows. Public data only."""
    moves: dict[str, dict] = {}
    for action, preview in zip(legal, found, strict=True):
        windows = moves.setdefault(str(action["strip"]), {})
        key = f"{action['x']},{action['y']},{action['orientation']}"
        windows.setdefault(key, [None, None])[int(action["flip"])] = (
            preview["points"] + preview["rats"] + [int(_loses(view, preview))]
        )
    colours = view["colours"]
    return {
        "mover": view["current_seat"],
        "strips": {
            str(strip["id"]): [_field(symbol) for symbol in strip["fields"]]
            for strip in view["hand"]
        },
        "moves": moves,
        "words": {
            # Placeholders filled by the script: {x} {y} {direction} {fields} {rp} {gp} {rr} {gr}
            "preview": _(
                "Strip from (%(x)s, %(y)s) %(direction)s: %(fields)s. Points: %(red)s %(rp)s, "
                "%(green)s %(gp)s. Rats visible after: %(red)s %(rr)s, %(green)s %(gr)s."
            )
            % {
                "x": "{x}",
                "y": "{y}",
                "direction": "{direction}",
                "fields": "{fields}",
                "red": words.colour_name(colours[0]),
                "green": words.colour_name(colours[1]),
                "rp": "{rp}",
                "gp": "{gp}",
                "rr": "{rr}",
                "gr": "{gr}",
            },
            "loses": _(
                "You would lose to your rats: three of them visible at the end of your turn."
            ),
            "target": _("Place the middle of the strip on (%(x)s, %(y)s)")
            % {"x": "{x}", "y": "{y}"},
            "none": _("This strip has no legal place in this direction: rotate it."),
            "h": str(DIRECTION_WORDS["h"]),
            "v": str(DIRECTION_WORDS["v"]),
        },
    }


def legend_symbols() -> list[dict]:
    """The board's legend: each spice in the data file's order, each rat, the start field
    (R2), as ``legend.html`` draws them (drawing id and name)."""
    return [_field(symbol) for symbol in [*SPICE_SEAT, *RAT_SEAT, START]]


def bot_mover(game: Game, view: dict) -> dict | None:
    """Who a bot moves for, when a bot plays the seat to move: ``{"name", "stand_in"}``
    (a stand-in: the player's name; a bot's own seat: its name and level). Its turn has
    no countdown worth showing: the bot moves within moments (``games.bots``)."""
    current = view.get("current_seat")
    seat = next((s for s in game.seats.all() if s.seat == current), None)
    if seat is None or not seat.bot:
        return None
    if seat.is_stand_in and seat.user is not None:
        return {"name": seat.user.public_name, "stand_in": True}
    return {"name": seat.public_name, "stand_in": False}


def result_headline(result: dict, reader_seat: int | None, names) -> str:
    """A finished game's outcome in one sentence for the top of the table (R23, R26):
    who won and the two scores, or who lost to the rats."""
    winners = result["winners"]
    scores = [player["score"] for player in result["players"]]
    loser = result.get("rat_loser")
    if result["reason"] == "rats" and loser is not None:
        winner = 1 - loser
        if reader_seat == winner:
            return _("You won: %(name)s lost to the rats.") % {"name": names.name(loser)}
        if reader_seat == loser:
            return _("%(name)s won: you lost to the rats.") % {"name": names.name(winner)}
        return _("%(winner)s won: %(loser)s lost to the rats.") % {
            "winner": names.name(winner),
            "loser": names.name(loser),
        }
    if result["reason"] != "complete" or not winners:
        # Ended another way (a resignation, R37): the ending's words say how.
        return _("The game is over. Won by: %(winners)s.") % {
            "winners": ", ".join(names.name(seat) for seat in winners)
        }
    if len(winners) > 1:
        return _("A tie at %(score)d points: the win is shared.") % {"score": scores[0]}
    [winner] = winners
    values = {"name": names.name(winner), "high": scores[winner], "low": scores[1 - winner]}
    if reader_seat == winner:
        return _("You won, %(high)d to %(low)d points.") % values
    return _("%(name)s won, %(high)d to %(low)d points.") % values


def table_context(game: Game, seat: int | None, zone, *, watcher: bool = False) -> dict:
    """Everything the template ``games/rattenscharf/table.html`` draws for the viewer at
    ``seat`` (None: a spectator; ``watcher``: one of a public game); empty before the game
    starts."""
    context = basic_context(game, seat, zone)
    if not context:
        return {}
    view = context["view"]
    names = context.pop("names")
    active = view["status"] == "active"
    for player in context["players"]:
        number = player["seat"]
        rats = view["visible_rats"][number]
        player.update(
            colour=view["colours"][number],
            colour_word=words.colour_name(view["colours"][number]),
            score=view["scores"][number],
            rats=rats,
            # One more of their own rats at the end of their turn loses (R22).
            rats_danger=active and rats >= RAT_LIMIT - 1,
        )
    legal = [] if context["bot_plays"] else view["legal_actions"]
    found = previews({**view, "legal_actions": legal})
    context.update(
        hand=[_strip(strip) for strip in view["hand"]],
        unseen=[_strip(strip) for strip in view["unseen"]],
        has_moves=bool(legal),
        choices=placement_choices(view, legal, found),
        play_data=play_data(view, legal, found) if legal else None,
        last_scoring=[words.event_text(words.as_event(e)) for e in view["last_scoring"]],
        rat_limit=RAT_LIMIT,
        result=None if view["result"] is None else words.describe_result(view["result"], names),
        result_headline=""
        if view["result"] is None
        else result_headline(view["result"], seat, names),
        bot_mover=bot_mover(game, view) if active else None,
        legend=legend_symbols(),
        # The public log in the words of the emails and the replay (automatic placements
        # marked), newest first: a player coming back wants what happened since.
        log=words.describe_moves(log_to_describe(game, seat, watcher=watcher), names)[::-1],
    )
    return context
