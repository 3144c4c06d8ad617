"""Rattenscharf (Michael Schacht, Queen Games 2005, 2 players) as a pure rules engine.

Pure Python: no Django, database, clock, network or global RNG; a game is a ``State``
value moved on by ``apply``. See docs/rules/rattenscharf.md for rules R1-R36
(R36, abandonment, is the service's job: ``ROUNDS_TO_ABANDON``, its rounds being turns).
"""

from .bots import LEVELS as BOT_LEVELS
from .bots import STAND_IN_LEVEL
from .bots import choose_action as choose_bot_action
from .effects import move_effects, public_revealed
from .engine import (
    apply,
    current_seat,
    is_finished,
    legal_actions,
    new_game,
    result,
    round_number,
    scores,
    standing_result,
)
from .errors import ERROR_CODES, IllegalAction
from .state import State, dump, load
from .strips import COLOURS, STRIPS, StripDataError
from .timeout import timeout_action
from .view import view

GAME = "rattenscharf"
NAME = "Rattenscharf"
PLAYER_COUNTS = (2,)  # R27
# R27: nothing but the draw order is hidden, so there is no blind mode.
OPTIONS: dict[str, bool] = {}
ROUNDS_TO_ABANDON = 2  # R36: both players missed a whole turn back to back

__all__ = [
    "BOT_LEVELS",
    "COLOURS",
    "ERROR_CODES",
    "GAME",
    "NAME",
    "OPTIONS",
    "PLAYER_COUNTS",
    "ROUNDS_TO_ABANDON",
    "STAND_IN_LEVEL",
    "STRIPS",
    "IllegalAction",
    "State",
    "StripDataError",
    "apply",
    "choose_bot_action",
    "current_seat",
    "dump",
    "is_finished",
    "legal_actions",
    "load",
    "move_effects",
    "new_game",
    "public_revealed",
    "result",
    "round_number",
    "scores",
    "standing_result",
    "timeout_action",
    "view",
]
