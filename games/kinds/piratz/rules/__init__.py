"""Piratz (Igel Spiele, 2-4 players), a pure engine: docs/api.md "The engine's entry points".

Pure Python: no Django, database, clock, network or global RNG; a game is a ``State``
value moved on by ``apply``. See docs/rules/piratz.md for rules P1-P25 (P25,
abandonment, is the service's job).
"""

from .bots import LEVELS as BOT_LEVELS
from .bots import STAND_IN_LEVEL
from .bots import choose_action as choose_bot_action
from .deck import TREASURES, DeckError
from .effects import move_effects, public_revealed
from .engine import (
    apply,
    card,
    current_phase,
    current_seat,
    is_finished,
    legal_actions,
    new_game,
    revealed_card,
    round_number,
)
from .errors import ERROR_CODES, IllegalAction
from .fairness import check_deal
from .scoring import result, scores
from .scoring import result as standing_result  # scores any state (P19-P22)
from .shuffle import commitment as shuffle_commitment
from .shuffle import is_client_seed, shuffle_key
from .state import State, dump, load
from .timeout import timeout_action
from .view import view

GAME = "piratz"
NAME = "Piratz"
PLAYER_COUNTS = (2, 3, 4)
OPTIONS = {"blind": False}  # P23: collections hidden until the end
ROUNDS_TO_ABANDON = 1  # P25: a whole round of automatic moves

__all__ = [
    "BOT_LEVELS",
    "ERROR_CODES",
    "GAME",
    "NAME",
    "OPTIONS",
    "PLAYER_COUNTS",
    "ROUNDS_TO_ABANDON",
    "STAND_IN_LEVEL",
    "TREASURES",
    "DeckError",
    "IllegalAction",
    "State",
    "apply",
    "card",
    "check_deal",
    "choose_bot_action",
    "current_phase",
    "current_seat",
    "dump",
    "is_client_seed",
    "is_finished",
    "legal_actions",
    "load",
    "move_effects",
    "new_game",
    "public_revealed",
    "result",
    "revealed_card",
    "round_number",
    "scores",
    "shuffle_commitment",
    "shuffle_key",
    "standing_result",
    "timeout_action",
    "view",
]
