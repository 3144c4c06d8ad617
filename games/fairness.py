"""A shuffle anyone can check: the server seed and its commitment, client seeds, verification.

When a game is created the service draws a secret server seed and publishes its
commitment; each player may add a client seed when accepting; at the start the game is
dealt with the key derived from all of them (the rules' ``shuffle_key``); once the game
has ended the seed is published and ``verification`` redoes every shuffle. What is
hidden when: the server seed, the key and everything derived from them (the deal, the
reshuffles) only after the end (``seed_is_public``); the commitment and the client seeds
from the moment they exist. See docs/shuffle.md.
"""

import secrets

from django.utils.translation import gettext as _

from core.errors import ServiceError
from games.catalogue import rules_for
from games.models import Game, GameStatus, Move
from games.movelog import is_resignation

# The service offers checkable shuffles for rules modules that have these names.
_RULES_NAMES = ("shuffle_commitment", "is_client_seed", "shuffle_key", "check_deal")
SERVER_SEED_BYTES = 32
# Named in the verification JSON so tools/verify_game.py refuses what it does not know.
SCHEME = "piratz-shuffle-v1"
# Statuses in which the seed is published: nothing is left to hide once a game has ended,
# and a cancelled game was never dealt.
ENDED = (GameStatus.FINISHED, GameStatus.ABORTED, GameStatus.CANCELLED)


def checkable(rules) -> bool:
    """Whether ``rules`` (a rules module) offers checkable shuffles."""
    return all(hasattr(rules, name) for name in _RULES_NAMES)


def new_server_seed(game_name: str) -> tuple[str, str]:
    """A fresh secret server seed (hex) and its public commitment for a new game of
    ``game_name``; ``("", "")`` for rules without checkable shuffles."""
    rules = rules_for(game_name)
    if not checkable(rules):
        return "", ""
    seed = secrets.token_bytes(SERVER_SEED_BYTES)
    return seed.hex(), rules.shuffle_commitment(seed)


def clean_client_seed(game_name: str, text) -> str:
    """``text`` as a seat's client seed in a game of ``game_name`` ("" for none given);
    ``ServiceError("invalid")`` if it is not one."""
    rules = rules_for(game_name)
    if text is None or text == "" or not checkable(rules):
        return ""
    if not rules.is_client_seed(text):
        raise ServiceError(
            "invalid",
            _("A client seed is 1 to 64 characters: letters A-Z and a-z, digits, - and _."),
        )
    return text


def shuffle_key(game: Game, seats) -> bytes | None:
    """The key ``game`` is dealt with, from its seed and ``seats``' client seeds; None for a
    game without a server seed (created before shuffles were checkable)."""
    if not game.server_seed or not checkable(game.rules):
        return None
    ordered = sorted(seats, key=lambda seat: seat.seat)
    return game.rules.shuffle_key(
        bytes.fromhex(game.server_seed), [seat.client_seed for seat in ordered]
    )


def seed_is_public(game: Game) -> bool:
    """Whether ``game``'s server seed and key may be shown: only once it has ended."""
    return game.status in ENDED


def public_server_seed(game: Game) -> str | None:
    """The server seed as anyone may see it: None until the game has ended (or if none)."""
    return game.server_seed if game.server_seed and seed_is_public(game) else None


def public_client_seed(seat) -> str | None:
    """A seat's client seed, public once given; None if the seat gave none."""
    return seat.client_seed or None


def verification(game: Game) -> dict:
    """Everything needed to check ``game``'s shuffles, and the server's own check of them.

    The JSON-ready dict of ``GET /api/games/{id}/verification/``, the verification page,
    ``manage.py verify_game`` and the input of ``tools/verify_game.py``. Before the end
    it holds only what is public then (commitment, client seeds, cube placement) and
    ``verified`` is None. After the end it adds the server seed, the key, the log (card
    ids, with the round each move was played in), the redone shuffles and ``checks``:
    ``commitment`` (the seed hashes to the commitment), ``key`` (the seed and client
    seeds give the key the game was dealt with), ``deal`` (the cube placement and every
    revealed card are what the key deals) and ``replay`` (the logged moves, replayed by
    the rules from the key, give the stored game); ``verified`` is True when all pass. A
    seed that does not match its commitment fails at once: nothing derived from it counts.
    """
    seats = sorted(game.seats.all(), key=lambda seat: seat.seat)
    rules = game.rules
    state = game.load_state()
    data = {
        "scheme": SCHEME,
        "game": str(game.id),
        "rules": game.game,
        "status": game.status,
        "players": len(seats),
        "blind": game.blind,
        "commitment": game.seed_commitment or None,
        "client_seeds": [
            {"seat": seat.seat, "client_seed": public_client_seed(seat)} for seat in seats
        ],
        "cubes": _placement(rules, state),
        "server_seed": None,
        "key": None,
        "log": None,
        "shuffles": None,
        "checks": [],
        "verified": None,
    }
    if not game.seed_commitment or not checkable(rules):
        return data  # created before shuffles were checkable: nothing to check
    if not seed_is_public(game):
        return data
    data["server_seed"] = game.server_seed
    try:
        seed = bytes.fromhex(game.server_seed)
        committed = rules.shuffle_commitment(seed) == game.seed_commitment
    except ValueError:  # not a seed at all (a damaged row): it cannot match
        committed = False
    checks = [{"check": "commitment", "passed": committed}]
    if state is not None and committed:
        key = rules.shuffle_key(seed, [seat.client_seed for seat in seats])
        log = _log(game)
        deal = rules.check_deal(len(seats), key, data["cubes"], log)
        data.update(key=key.hex(), log=log, shuffles=deal["shuffles"])
        checks += [
            {"check": "key", "passed": state.key == key},
            {"check": "deal", "passed": not deal["mismatches"], "mismatches": deal["mismatches"]},
            {"check": "replay", "passed": _replays(rules, game, len(seats), key, log)},
        ]
    data["checks"] = checks
    data["verified"] = all(check["passed"] for check in checks)
    return data


def _placement(rules, state) -> dict | None:
    """The cube placement the game showed from its first move (public, rules P7); None
    before the start and for games without checkable shuffles (nothing to compare)."""
    if state is None or not checkable(rules):
        return None
    return {name: list(values) for name, values in zip(rules.TREASURES, state.cubes, strict=True)}


def _log(game: Game) -> list[dict]:
    """The whole log as the check reads it: card ids, and the round each move was played in.

    Only built once the game has ended, when every entry is public (rules P23).
    """
    return [
        {
            "number": move.number,
            "round": move.round,
            "seat": move.seat,
            "action": move.action,
            "revealed": move.revealed,
        }
        for move in Move.objects.filter(game=game).order_by("number")
    ]


def _replays(rules, game: Game, players: int, key: bytes, log: list[dict]) -> bool:
    """Whether the logged moves, applied by the rules to the game ``key`` deals, end in
    exactly the stored state (so no move, card or cube was changed after the fact)."""
    state = rules.new_game(players, blind=game.blind, key=key)
    try:
        for entry in log:
            if is_resignation(entry["action"]):
                continue  # not an engine action (P26, R37)
            state = rules.apply(state, entry["seat"], entry["action"])
    except rules.IllegalAction:
        return False
    return rules.dump(state) == game.state
