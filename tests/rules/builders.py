"""Action dicts and a cube placement that the rules tests share, named for readability."""

REVEAL = {"action": "reveal"}
END_TURN = {"action": "end_turn"}

# A 3-player cube placement that scenario and scoring tests share (values highest first).
CUBES_3P = {
    "rings": [4, 1],
    "coins": [3, 2],
    "pearls": [4, 2],
    "gems": [3, 1],
    "goblets": [4, 2],
    "shells": [3, 1],
}


def pass_(treasure, bury=None):
    """A ``pass`` naming ``treasure`` and burying ``bury`` (a card id, or None)."""
    return {"action": "pass", "treasure": treasure, "bury": bury}


def alarm(keep, bury):
    """A ``resolve_alarm`` keeping rat ``keep`` and burying ``bury``."""
    return {"action": "resolve_alarm", "keep": keep, "bury": bury}
