"""The Piratz table page's content: what a viewer sees and may play, ready for the templates.

Built only from ``Game.table_view(seat)`` (the engine's view for that seat: no draw order,
and in blind mode no collections or unseen set before the end) and ``public_log``, never
from the secret state, so the page can show nothing the API would not. The templates
under ``templates/games/piratz/`` draw it; ``games.table`` finds it through the game's
name.
"""

from django.utils.translation import gettext as _

from core.errors import ServiceError
from games.models import Game
from games.movelog import log_to_describe
from games.piratz import words as describe
from games.table import basic_context

# The move form's fields besides ``version`` and ``action``, per action (CONTRACT section 1).
MOVE_FIELDS = {
    "reveal": (),
    "end_turn": (),
    "pass": ("treasure", "bury"),
    "resolve_alarm": ("keep", "bury"),
}


def pass_choices(view: dict) -> list[dict]:
    """The viewer's legal ``pass`` moves grouped by the treasure named, in the view's order.

    Each choice says what naming that type takes (``takes``: the face-up cards showing it,
    ``cards`` and ``items`` their counts) and which cards may then be buried (``bury``, the
    rest of the row; empty when the spade goes down on no card). One choice per type, so a
    form built from one choice can only post a legal move. The types no face-up card shows
    all take nothing and leave the same cards to bury (rules P12's ruling), so they are one
    choice, the first of them, marked ``takes_nothing``.
    """
    choices: dict[str, dict] = {}
    for action in view["legal_actions"]:
        if action["action"] != "pass":
            continue
        treasure = action["treasure"]
        if treasure not in choices:
            takes = [card for card in view["face_up"] if card["treasures"].get(treasure)]
            items = sum(card["treasures"][treasure] for card in takes)
            choices[treasure] = {
                "treasure": treasure,
                "name": describe.treasure_name(treasure),
                "takes": takes,
                "cards": len(takes),
                "items": items,
                "items_text": describe.count_items(items, treasure),
                "bury": [],
                "takes_nothing": False,
            }
        if action["bury"] is not None:
            choices[treasure]["bury"].append(_card_in_row(view, action["bury"]))
    taking = [choice for choice in choices.values() if choice["cards"]]
    nothing = [choice for choice in choices.values() if not choice["cards"]]
    return taking + [{**nothing[0], "takes_nothing": True}] if nothing else taking


def alarm_choices(view: dict) -> list[dict]:
    """The viewer's legal ``resolve_alarm`` moves grouped by the rat kept (rules P14)."""
    choices: dict[int, dict] = {}
    for action in view["legal_actions"]:
        if action["action"] != "resolve_alarm":
            continue
        keep = action["keep"]
        if keep not in choices:
            choices[keep] = {"keep": _card_in_row(view, keep), "bury": []}
        if action["bury"] is not None:
            choices[keep]["bury"].append(_card_in_row(view, action["bury"]))
    return list(choices.values())


def _card_in_row(view: dict, card_id: int) -> dict:
    card = next(card for card in view["face_up"] if card["id"] == card_id)
    return {**card, "label": describe.describe_card(card)}


def parse_move(data) -> tuple[int, dict]:
    """``(version, action)`` from a move form's POST data, in CONTRACT section 1's shape.

    Raises ``ServiceError("invalid")`` when the form is not one the table page builds (a
    missing or malformed field); whether the move is legal now is the engine's call.
    An empty ``bury`` is null: the spade placed on no card.
    """
    try:
        version = int(data.get("version", ""))
        kind = data.get("action", "")
        fields = MOVE_FIELDS[kind]
        action: dict = {"action": kind}
        for name in fields:
            value = data.get(name)
            if value is None:
                raise ValueError(name)
            if name == "treasure":
                action[name] = value
            elif name == "bury" and value == "":
                action[name] = None
            else:
                action[name] = int(value)
        if version < 0:
            raise ValueError("version")
    except (KeyError, ValueError):
        raise ServiceError(
            "invalid", _("That move form was incomplete, so nothing was played. Choose again.")
        ) from None
    return version, action


def table_context(game: Game, seat: int | None, zone) -> dict:
    """Everything ``templates/games/piratz/table.html`` draws, for the viewer at ``seat``.

    ``game`` must carry its seats as ``queries.SEATS_WITH_USERS`` prefetches them (with
    ``on_vacation_until``); ``zone`` is the viewer's time zone for every moment shown.
    None before the game starts.
    """
    context = basic_context(game, seat, zone)
    if not context:
        return {}
    view = context["view"]
    names = context.pop("names")
    for player, collected in zip(context["players"], view["collected"], strict=True):
        cards = collected["cards"]
        player.update(
            holds_spade=view["spades"][player["seat"]],
            count=collected["count"],
            cards=cards,
            items=None if cards is None else describe.items_in(cards),
        )
    moves = list(game.moves.order_by("number"))
    entries = log_to_describe(game, seat, moves)
    rounds = {move.number: move.round for move in moves}
    log = describe.describe_log(
        entries, rounds, game.round if game.is_active else None, names, game.rules.card
    )
    bot_plays = context["bot_plays"]
    legal = set() if bot_plays else {action["action"] for action in view["legal_actions"]}
    context.update(
        {
            "buried": [
                {"card": b["card"], "spade": names.spade(b["seat"]), "seat": b["seat"]}
                for b in view["buried"]
            ],
            "cubes": [
                {"treasure": treasure, "name": describe.treasure_name(treasure), "values": values}
                for treasure, values in view["cubes"].items()
            ],
            "phase": str(describe.PHASE_WORDS.get(view["phase"] or "", "")),
            "blind": view["unseen"] is None,
            "result": None
            if view["result"] is None
            else describe.describe_result(view["result"], names),
            # Newest first: a player coming back wants what happened since they last looked.
            "log": log[::-1],
            "can_reveal": "reveal" in legal,
            "can_end_turn": "end_turn" in legal,
            "pass_choices": [] if bot_plays else pass_choices(view),
            "alarm_choices": [] if bot_plays else alarm_choices(view),
            "has_moves": bool(legal),
        }
    )
    return context
