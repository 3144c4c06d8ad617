"""The Piratz table page's content: what a viewer sees and may play, ready for the templates.

Built only from ``Game.table_view(seat)`` (the engine's view for that seat: no draw order,
and in blind mode no collections or unseen set before the end) and ``public_log``, never
from the secret state, so the page can show nothing the API would not. The templates
under ``games/kinds/piratz/templates/games/piratz/`` draw it; ``games.table`` finds it
through the game's name.
"""

from collections import Counter

from django.utils.translation import gettext as _

from core.errors import ServiceError
from games.describe import Names
from games.kinds.piratz import words as describe
from games.kinds.piratz.replay import explain_scoring, initial_cubes
from games.kinds.piratz.rules import TREASURES, State
from games.kinds.piratz.rules import result as score
from games.models import Game
from games.movelog import log_to_describe, moves_at_version
from games.table import basic_context

# The move log shows this many of its newest lines (more if more came since the reader's
# last move); the older ones fold away.
LOG_SHOWN = 5

# The move form's fields besides ``version`` and ``action``, per action
# (docs/api.md "The engine's entry points").
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


def tally(view: dict, names: Names) -> dict[str, dict] | None:
    """Per treasure type, the score card if the game ended now (rules P19-P22), or None
    when the view hides the collections (blind mode before the end, rules P23).

    The engine's own scoring (``games.kinds.piratz.rules.result``) is run on the collections
    the view shows, so the page never disagrees with the final count. Each type maps to
    ``{"holders": [...], "tie": {...} | None}``: ``holders`` are the players with at least
    one item, those the engine hands a cube first (highest cube first), then the rest by
    items; each ``{"seat", "name", "items", "cube"}`` with ``cube`` None for no cube.
    ``tie`` (``{"names", "value"}``) says which players' full tie stops the ``value`` cube
    and every later one of that type (P20).
    """
    collected = view["collected"]
    if any(player["cards"] is None for player in collected):
        return None
    scored = score(_public_state(view))
    players = scored["players"]
    tallies = {}
    for treasure in TREASURES:
        awards = scored["awards"][treasure]
        cube_of = {award["seat"]: award["value"] for award in awards}
        holders = [p for p in players if p["items"][treasure]]
        others = sorted(
            (p for p in holders if p["seat"] not in cube_of),
            key=lambda p: (-p["items"][treasure], p["seat"]),
        )
        ranked = [players[award["seat"]] for award in awards] + others
        values = view["cubes"][treasure]
        tie = None
        if others and len(awards) < len(values):
            # The engine stopped before a cube it had a holder for: a full tie (P20).
            first = others[0]
            keys = (first["items"][treasure], first["rats"], first["cards"])
            tied = [p for p in others if (p["items"][treasure], p["rats"], p["cards"]) == keys]
            if len(tied) > 1:
                tie = {
                    "names": ", ".join(names.subject(p["seat"]) for p in tied),
                    "value": values[len(awards)],
                }
        tallies[treasure] = {
            "holders": [
                {
                    "seat": p["seat"],
                    "name": names.subject(p["seat"]),
                    "items": p["items"][treasure],
                    "cube": cube_of.get(p["seat"]),
                }
                for p in ranked
            ],
            "tie": tie,
        }
    return tallies


def _public_state(view: dict) -> State:
    """A State holding only what ``view`` shows (no key, no draw pile), for the scoring,
    which reads the collections and the cubes."""
    return State(
        players=view["players"],
        blind=False,
        key=bytes(32),
        round=view["round"],
        current=view["current_seat"],
        phase=view["phase"],
        last_round=view["last_round"],
        finished=False,
        reshuffles=0,
        draw=(),
        discard=(),
        face_up=tuple(card["id"] for card in view["face_up"]),
        buried=tuple((b["seat"], b["card"]["id"]) for b in view["buried"]),
        spades=tuple(view["spades"]),
        collected=tuple(tuple(card["id"] for card in p["cards"]) for p in view["collected"]),
        cubes=tuple(tuple(view["cubes"][treasure]) for treasure in TREASURES),
    )


def collection_counts(cards: list[dict]) -> list[dict]:
    """A collection in numbers (P19): ``{"treasure", "name", "count"}`` per type held, in
    P1 order, then ``"rat"`` with the number of rat cards when there are any."""
    totals: Counter = Counter()
    for card in cards:
        totals.update(card["treasures"])
    counts = [
        {"treasure": t, "name": describe.treasure_name(t), "count": totals[t]}
        for t in TREASURES
        if totals[t]
    ]
    rats = sum(1 for card in cards if card.get("rat"))
    if rats:
        counts.append({"treasure": "rat", "name": _("rats"), "count": rats})
    return counts


def log_lines(game: Game, seat: int | None, names: Names, *, watcher: bool = False) -> dict:
    """The move log in words for the reader at ``seat`` (a ``watcher``: a spectator of a
    public game, ``games.movelog.first_full_entry``): ``log`` (every line, newest
    first), ``log_recent`` (the newest lines as ``{"text", "since"}``) and ``log_older``
    (the rest, folded away).

    ``since`` marks what the others did since the reader's last turn: the moves after the
    reader's own last move before the others' latest one (so while the reader is in the
    middle of a turn, the recap stays the one their turn began with, as their turn email's).
    """
    moves = moves_at_version(game)
    entries = log_to_describe(game, seat, moves, watcher=watcher)
    rounds = {move.number: move.round for move in moves}
    current_round = game.round if game.is_active else None

    def lines_from(index: int) -> int:
        # The lines of entries[index:] are the full log's newest ones: each line depends
        # only on its entry, the next one and the round now.
        tail = entries[index:]
        if not tail:
            return 0
        return len(describe.describe_log(tail, rounds, current_round, names, game.rules.card))

    log = describe.describe_log(entries, rounds, current_round, names, game.rules.card)[::-1]
    since = range(0)
    if seat is not None and game.is_active:
        end = len(moves)
        while end and moves[end - 1].seat == seat:  # the reader's turn under way
            end -= 1
        start = end
        while start and moves[start - 1].seat != seat:
            start -= 1
        if start:  # the reader has had a turn: what came after it is the recap
            since = range(lines_from(end), lines_from(start))
    shown = max(LOG_SHOWN, since.stop)
    return {
        "log": log,
        "log_recent": [
            {
                "text": line,
                "since": index in since,
                "first_since": index == since.start != since.stop,
            }
            for index, line in enumerate(log[:shown])
        ],
        "log_older": log[shown:],
    }


def parse_move(data) -> tuple[int, dict]:
    """``(version, action)`` from a move form's POST data, in the engine's action shape.

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


def table_context(game: Game, seat: int | None, zone, *, watcher: bool = False) -> dict:
    """Everything the template ``games/piratz/table.html`` draws, for the viewer at ``seat``
    (None: a spectator; ``watcher``: one of a public game, who sees less of a blind log).

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
            counts=None if cards is None else collection_counts(cards),
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
            # The finished game's scoring, treasure by treasure: who got which cube, why.
            "scoring": None
            if view["result"] is None
            else explain_scoring(
                view["result"], initial_cubes(view), names.subject, reader=names.reader_seat
            ),
            "tally": tally(view, names) if game.is_active else None,
            "rat_alert": game.is_active and view["phase"] == "alarm",
            "can_reveal": "reveal" in legal,
            "can_end_turn": "end_turn" in legal,
            "pass_choices": [] if bot_plays else pass_choices(view),
            "alarm_choices": [] if bot_plays else alarm_choices(view),
            "has_moves": bool(legal),
            # Newest first: a player coming back wants what happened since they last looked.
            **log_lines(game, seat, names, watcher=watcher),
        }
    )
    tallies = context["tally"] or {}
    for row in context["cubes"]:
        row.update(tallies.get(row["treasure"], {}))
    return context
