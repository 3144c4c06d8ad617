"""Schemathesis hooks for the conformance run: aim generated data at the seeded data.

A random UUID only ever reaches "404 no such game"; the seeded games (``seed.py``: invited,
Anna to move, someone else to move, finished, aborted, another's game) are where the
answers are interesting. ``CONFORMANCE_SEED`` names the JSON file the seed wrote,
``CONFORMANCE_URL`` the server (the hooks read the games' live state from it, with the
run's key ``CONFORMANCE_KEY``).

Only positive cases are changed, just before they are sent (``before_call``), and only
into other schema-valid data: a negative case must stay as invalid as it was made. Some
rules no schema can state (a legal move now, a vacation in the future, a webhook host
with public addresses, the caller's own games, data a success uses up) would refuse
nearly every generated request; for a share of the cases the hooks put in data that
keeps them, so that each phase reaches the success path as well as the refusals. The
choices follow the order of the calls and the generated data, the same in every run.
"""

import hashlib
import json
import os
import uuid
from datetime import UTC, datetime, timedelta
from itertools import count

import requests
import schemathesis
from schemathesis import GenerationMode

from tests.conformance.seed import CALLER, SUBSTITUTE_SEAT, WEBHOOK_URL

with open(os.environ["CONFORMANCE_SEED"]) as seed_file:
    SEED = json.load(seed_file)
GAME_IDS = [game_id for ids in SEED["games"].values() for game_id in ids]
# The games Anna holds a seat in (reports are about those).
HER_GAMES = [
    game_id for kind, ids in SEED["games"].items() if kind != "outsider" for game_id in ids
]
POOLS = SEED["pools"]  # pool -> phase -> seeded data used up by the request that succeeds
_taken = {}  # (pool, phase) -> how many were handed out
_calls = {}  # (method, path, phase) -> positive calls steered or not


@schemathesis.hook
def before_load_schema(context, raw_schema):
    """List the seeded games as examples of every ``game_id`` parameter (the examples and
    coverage phases try each)."""
    for item in raw_schema.get("paths", {}).values():
        for parameter in item.get("parameters", []) + [
            p
            for operation in item.values()
            if isinstance(operation, dict)
            for p in operation.get("parameters", [])
        ]:
            if parameter.get("name") == "game_id" and parameter.get("in") == "path":
                parameter["examples"] = {
                    f"seeded{number}": {"value": game_id} for number, game_id in enumerate(GAME_IDS)
                }


@schemathesis.hook
def map_path_parameters(context, path_parameters):
    """Turn most generated (valid) game ids into seeded ones, chosen by the generated id
    itself so a run is reproducible; one slot in ``len(GAME_IDS) + 1`` keeps the random id
    (an unknown game). Invalid ids (negative cases) are left alone: they must stay invalid."""
    value = (path_parameters or {}).get("game_id")
    if isinstance(value, str):
        try:
            slot = uuid.UUID(value).int % (len(GAME_IDS) + 1)
        except ValueError:
            return path_parameters
        if slot < len(GAME_IDS):
            return {**path_parameters, "game_id": GAME_IDS[slot]}
    return path_parameters


@schemathesis.hook
def before_call(context, case, kwargs):
    """Steer positive cases (see the module's doc), operation by operation, just before
    they are sent (so a move is chosen from the game as it is then), in every phase."""
    _spare_the_run_key(case)
    meta = case._meta
    if meta is None or meta.generation.mode != GenerationMode.POSITIVE:
        return
    steer = _STEERS.get((case.method.upper(), case.path))
    if steer is not None:
        steer(case, str(meta.phase.name))


def _spare_the_run_key(case):
    """``DELETE /api/me/api-keys/{key_id}/`` of the run's own key would end the run (every
    later request 401): that one id becomes an unknown key's, in every mode and phase."""
    if (
        case.method.upper() == "DELETE"
        and case.path == "/api/me/api-keys/{key_id}/"
        and case.path_parameters.get("key_id") == SEED["key_id"]
    ):
        case.path_parameters = {**case.path_parameters, "key_id": SEED["key_id"] + 10**6}


# --- One steer per operation ------------------------------------------------------------------


def _seat_the_caller(case, phase):
    """``POST /api/games/``: seat the caller (the service wants her among the players), so
    created games are hers and the stateful phase can go on from them."""
    body = case.body
    players = body.get("players") if isinstance(body, dict) else None
    if isinstance(players, list) and players and isinstance(players[0], str):
        case.body = {**body, "players": [CALLER, *players[1:]]}


def _from_pool(pool):
    """Decline, take back: a generated (thus seeded) game becomes the next one of the
    phase's pool; an unknown game (the random slot) or one a link chose stays."""

    def steer(case, phase):
        if case.path_parameters.get("game_id") in GAME_IDS:
            case.path_parameters = {**case.path_parameters, "game_id": _next(pool, phase)}

    return steer


def _delete_a_webhook(case, phase):
    """``DELETE …/webhooks/{webhook_id}/``: one of Anna's seeded webhooks and its game, but
    in the stateful phase, where the webhook is the one a link brought from its creation."""
    if phase != "stateful" and case.path_parameters.get("game_id") in GAME_IDS:
        game_id, webhook_id = _next("webhook", phase)
        case.path_parameters = {
            **case.path_parameters,
            "game_id": game_id,
            "webhook_id": webhook_id,
        }


def _report_her_game(case, phase):
    """``POST /api/reports/``: most generated game ids become one of Anna's games (she may
    report only those), by the id, as ``map_path_parameters`` does; not a linked game."""
    body = case.body
    if phase == "stateful" or not isinstance(body, dict) or not isinstance(body.get("game"), str):
        return
    try:
        slot = uuid.UUID(body["game"]).int % (len(HER_GAMES) + 1)
    except ValueError:
        return
    if slot < len(HER_GAMES) and body["game"] not in GAME_IDS:
        case.body = {**body, "game": HER_GAMES[slot]}


def _add_a_reachable_webhook(case, phase):
    """``POST …/webhooks/``: every other URL becomes one on a public address (a literal IP:
    the run resolves no names; nothing is posted), keeping the generated kind and path.
    A generated host is a random name: refused, as it does not resolve to public addresses."""
    body = case.body
    if isinstance(body, dict) and isinstance(body.get("url"), str) and _every_other(case, phase):
        case.body = {**body, "url": WEBHOOK_URL + _digest(body)[:12]}


def _offer_a_stand_ins_seat(case, phase):
    """``POST …/seats/{seat}/substitute/``: every other case offers the stand-in's seat of
    the phase pool's next game (Anna hosts; a bot plays Carla's seat), in the lobby or, by
    the generated body, to an address (the body must be one or the other, a rule no schema
    states). The pool's games, used once each, then answer 409 "offered already"; the
    rest stay as generated: mostly another seat, or a game with no stand-in."""
    if not _every_other(case, phase):
        return
    case.path_parameters = {
        **case.path_parameters,
        "game_id": _next("offer", phase),
        "seat": SUBSTITUTE_SEAT,
    }
    digest = _digest(case.body)
    if int(digest, 16) % 2:
        case.body = {"lobby": True}
    else:
        case.body = {"email": f"substitute-{digest[:10]}@example.com"}


def _withdraw_an_offer(case, phase):
    """``DELETE …/seats/{seat}/substitute/``: every other case withdraws the open lobby
    offer of the phase pool's next game (Anna offered Carla's seat); once each is withdrawn
    they answer 409 "not offered"."""
    if _every_other(case, phase):
        case.path_parameters = {
            **case.path_parameters,
            "game_id": _next("withdraw", phase),
            "seat": SUBSTITUTE_SEAT,
        }


def _take_an_offer(case, phase):
    """``POST /api/lobby/substitutes/{offer_id}/take/``: the phase pool's next lobby offer
    (Bert's, at a game without Anna); a taken one answers 404 after. Every case: a
    generated id is a small number, which would take the pools' offers out of turn."""
    case.path_parameters = {**case.path_parameters, "offer_id": _next("take", phase)}


_vacation_slot = count()


def _plan_a_vacation(case, phase):
    """``POST /api/me/vacations/``: a vacation that starts later (``starts_at`` given)
    becomes an hour in the coming weeks, after the ones planned before it: in the future,
    overlapping none, within the yearly allowance. Without ``starts_at`` it starts now and
    stays as generated (mostly over already, or overlapping the running one)."""
    body = case.body
    if isinstance(body, dict) and "starts_at" in body and "ends_at" in body:
        tomorrow = datetime.now(UTC).replace(minute=0, second=0, microsecond=0) + timedelta(days=1)
        starts = tomorrow + timedelta(hours=2 * next(_vacation_slot))
        case.body = {
            **body,
            "starts_at": starts.isoformat().replace("+00:00", "Z"),
            "ends_at": (starts + timedelta(hours=1)).isoformat().replace("+00:00", "Z"),
        }


def _play_a_legal_move(case, phase):
    """``POST …/moves/``: every other move becomes one of Anna's legal actions, at the
    game's version: in the case's game if she is to move there, else in the first of her
    seeded games where she is, or can be once the other players (their keys: the seed's)
    have played their turns. The rest stay as generated: mostly illegal now, out of turn,
    or of a stale version. In the stateful phase only the linked game is used."""
    body = case.body
    if not isinstance(body, dict) or not _every_other(case, phase):
        return
    game_id = case.path_parameters.get("game_id")
    candidates = [game_id] if phase == "stateful" else [game_id, *HER_GAMES]
    for candidate in dict.fromkeys(candidates):
        game = _her_turn(candidate, others_may_play=phase != "stateful")
        if game is not None:
            legal = game["state"]["legal_actions"]
            action = legal[int(_digest(body), 16) % len(legal)]
            case.path_parameters = {**case.path_parameters, "game_id": candidate}
            case.body = {"version": game["version"], **action}
            return


def _her_turn(game_id, *, others_may_play: bool, limit: int = 60):
    """The game (Anna's view) if she may move in it now, after the other players' turns
    if ``others_may_play`` (each plays the first of its legal actions); else None."""
    for _ in range(limit):
        game = _get(f"/api/games/{game_id}/")
        if game is None or game.get("status") != "active" or game.get("state") is None:
            return None
        if game["state"].get("legal_actions"):
            return game
        if not others_may_play:
            return None
        for key in SEED["opponent_keys"]:
            theirs = _get(f"/api/games/{game_id}/", key)
            legal = ((theirs or {}).get("state") or {}).get("legal_actions")
            if legal:
                _post(
                    f"/api/games/{game_id}/moves/", {"version": theirs["version"], **legal[0]}, key
                )
                break
        else:
            return None  # nobody with a key is to move (a bot's seat)
    return None


_STEERS = {
    ("POST", "/api/games/"): _seat_the_caller,
    ("POST", "/api/games/{game_id}/decline/"): _from_pool("decline"),
    ("POST", "/api/games/{game_id}/take-back/"): _from_pool("take_back"),
    ("DELETE", "/api/games/{game_id}/webhooks/{webhook_id}/"): _delete_a_webhook,
    ("POST", "/api/games/{game_id}/webhooks/"): _add_a_reachable_webhook,
    ("POST", "/api/games/{game_id}/moves/"): _play_a_legal_move,
    ("POST", "/api/reports/"): _report_her_game,
    ("POST", "/api/me/vacations/"): _plan_a_vacation,
    ("POST", "/api/games/{game_id}/seats/{seat}/substitute/"): _offer_a_stand_ins_seat,
    ("DELETE", "/api/games/{game_id}/seats/{seat}/substitute/"): _withdraw_an_offer,
    ("POST", "/api/lobby/substitutes/{offer_id}/take/"): _take_an_offer,
}


# --- Helpers ------------------------------------------------------------------------------------


def _next(pool, phase):
    """The next item of ``pool`` for ``phase``, round and round (once each has been used,
    the requests meet the refusal that follows a success)."""
    items = POOLS[pool][phase]
    taken = _taken.get((pool, phase), 0)
    _taken[(pool, phase)] = taken + 1
    return items[taken % len(items)]


def _digest(data) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def _every_other(case, phase) -> bool:
    """True for the first, third, fifth... call of the case's operation in ``phase``."""
    key = (case.method.upper(), case.path, phase)
    _calls[key] = _calls.get(key, 0) + 1
    return _calls[key] % 2 == 1


def _get(path: str, key: str | None = None):
    """The server's JSON answer to ``GET path`` as the caller (or the player whose API key
    ``key`` is), or None if not 200."""
    answer = requests.get(os.environ["CONFORMANCE_URL"] + path, headers=_auth(key), timeout=20)
    return answer.json() if answer.status_code == 200 else None


def _post(path: str, body: dict, key: str) -> None:
    requests.post(os.environ["CONFORMANCE_URL"] + path, json=body, headers=_auth(key), timeout=20)


def _auth(key: str | None) -> dict:
    return {"Authorization": f"Token {key or os.environ['CONFORMANCE_KEY']}"}
