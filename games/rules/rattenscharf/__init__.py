"""Rattenscharf (Michael Schacht, Queen Games 2005, 2 players) as a pure rules engine.

Pure Python: no Django, database, clock, network or global RNG; a game is a ``State``
value moved on by ``apply``. See /work/shared/rules/RATTENSCHARF.md for rules R1-R36
(R36, abandonment, is the service's job). Not yet registered in ``games.rules.RULES``.
"""

from .effects import move_effects
from .engine import (
    apply,
    current_seat,
    is_finished,
    legal_actions,
    new_game,
    result,
    round_number,
    scores,
)
from .errors import ERROR_CODES, IllegalAction
from .state import State, dump, load
from .strips import COLOURS, STRIPS, StripDataError
from .timeout import timeout_action
from .view import view

GAME = "rattenscharf"

__all__ = [
    "COLOURS",
    "ERROR_CODES",
    "GAME",
    "STRIPS",
    "IllegalAction",
    "State",
    "StripDataError",
    "apply",
    "current_seat",
    "dump",
    "is_finished",
    "legal_actions",
    "load",
    "move_effects",
    "new_game",
    "result",
    "round_number",
    "scores",
    "timeout_action",
    "view",
]
