"""What a game change announces to the rest of the service: the one place to listen.

``games.actions`` sends these signals inside the transaction that made the change, after
the game row is written. A receiver must not do slow or external work there: it
schedules it with ``transaction.on_commit`` (so a rolled-back change announces nothing)
or writes an outbox row in the same transaction. Receivers are connected in their app's
``AppConfig.ready`` (bots that take their turn, webhooks that post to a chat, ...), so
the actions never import them.

Every signal is sent with ``game`` (the ``Game`` as just saved, its row still locked):

- ``move_applied``: also ``move`` (the ``Move`` just logged). Sent for every applied
  move, a player's, an automatic one, a bot's; when the move ended the game,
  ``game.status`` already says so (and ``game_ended`` follows).
- ``game_started``: every seat accepted and the deal is done; ``game.current_seat`` moves.
- ``game_ended``: the game reached its end for any reason (``game.status``: finished,
  cancelled or aborted; ``game.end_reason`` says why).
- ``clock_changed``: the host paused the game's clock, it resumed (the host, or by itself
  after ``PAUSE_MAX_DAYS``), or the host extended the turn; also ``event`` (``"paused"``,
  ``"resumed"`` or ``"extended"``). A resignation is a log entry: ``move_applied``.
"""

from django.dispatch import Signal

move_applied = Signal()
game_started = Signal()
game_ended = Signal()
clock_changed = Signal()
