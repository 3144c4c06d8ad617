"""Schemathesis hooks for the conformance run: aim generated game ids at the seeded games.

A random UUID only ever reaches "404 no such game"; the seeded games (``seed.py``: invited,
Anna to move, someone else to move, finished, aborted, another's game) are where the
answers are interesting. ``CONFORMANCE_SEED`` names the JSON file the seed wrote.
"""

import json
import os
import uuid

import schemathesis
from schemathesis import GenerationMode

from tests.conformance.seed import CALLER

with open(os.environ["CONFORMANCE_SEED"]) as seed_file:
    GAME_IDS = [game_id for ids in json.load(seed_file)["games"].values() for game_id in ids]


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
def map_case(context, case):
    """Seat the caller in the games the run creates (``POST /api/games/``), so the stateful
    phase can go on from a created game; in positive cases only, where the first player is
    already a generated string (a negative case must stay as invalid as it was made)."""
    meta = case._meta
    positive = meta is not None and meta.generation.mode == GenerationMode.POSITIVE
    body = case.body
    if (
        positive
        and (case.method.upper(), case.path) == ("POST", "/api/games/")
        and isinstance(body, dict)
        and isinstance(body.get("players"), list)
        and body["players"]
        and isinstance(body["players"][0], str)
    ):
        case.body = {**body, "players": [CALLER, *body["players"][1:]]}
    return case
