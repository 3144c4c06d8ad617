"""Every change to a game happens in this package: create, accept, decline, move, time out, abort.

Each ``do_*`` function is one atomic transaction that locks the game row
(``select_for_update``; on SQLite the IMMEDIATE transaction mode serialises writers
instead), checks the game is still in the state the caller saw, calls the pure
rules engine, writes the game row and its log rows, and queues emails in the same
transaction (the outbox sends them only after commit). Views, admin actions, Celery
tasks and management commands all call these functions, never ``.save()`` directly.

One module per domain: ``invitations`` (create, accept, decline), ``play`` (moves,
automatic moves and bots' moves), ``moderation``, ``bots`` (who plays a seat: taking it
back from a stand-in bot, a moderator handing it to one), ``together`` (resigning, the
host's pause, resume and extension, rematches), ``spectators`` (the host makes a game
public, opens its table talk to watchers), ``notes`` (a player's private notes on a
game: not game state, so no lock of the game and no version). The names below are
re-exported for callers. Reading games is ``games.queries``; due work (sweeps) is
``games.sweeps``; what players are told by email is ``games.notify``.
"""

from core.errors import ServiceError
from games.actions.bots import do_replace_with_bot, do_take_back_seat
from games.actions.common import MAX_TURN_HOURS, MIN_TURN_HOURS
from games.actions.invitations import (
    clean_emails,
    do_accept_invitation,
    do_create_arranged_game,
    do_create_game,
    do_decline_invitation,
)
from games.actions.moderation import do_abort_game, do_extend_deadline, do_force_automatic_move
from games.actions.play import (
    do_play_bot_move,
    do_play_move,
    do_play_timeout,
    do_set_standing_order,
)
from games.actions.spectators import do_set_spectators
from games.actions.together import (
    do_extend_turn,
    do_pause_game,
    do_rematch,
    do_resign,
    do_resume_game,
    resume_due_pause,
)
from games.invitation_links import invitation_token, read_invitation_token

__all__ = [
    "MAX_TURN_HOURS",
    "MIN_TURN_HOURS",
    "ServiceError",
    "clean_emails",
    "do_abort_game",
    "do_accept_invitation",
    "do_create_arranged_game",
    "do_create_game",
    "do_decline_invitation",
    "do_extend_deadline",
    "do_extend_turn",
    "do_force_automatic_move",
    "do_pause_game",
    "do_play_bot_move",
    "do_play_move",
    "do_play_timeout",
    "do_rematch",
    "do_replace_with_bot",
    "do_resign",
    "do_resume_game",
    "do_set_spectators",
    "do_set_standing_order",
    "do_take_back_seat",
    "invitation_token",
    "read_invitation_token",
    "resume_due_pause",
]
