"""Celery tasks of the games app: thin wrappers around actions and sweeps, safe to run twice.

Beat sends the sweeps (``CELERY_BEAT_SCHEDULE`` in settings). Each claims its due rows in
the database, so a sweep that runs twice, late, or on two workers at once acts once per
item; a sweep still queued when the next one is sent is dropped (``expires``), as the
next one does the same work.
"""

from celery import shared_task

from games import actions, sweeps

# One deadline sweep plays at most this many automatic moves (about 12 s of work, see
# BENCHMARKS.md), so no task runs long; a larger backlog (after an outage) is carried on
# by the next task at once, not a minute later.
DEADLINE_SWEEP_BATCH_SIZE = 1000


@shared_task
def cancel_expired_invitations() -> int:
    """Periodic: cancel games whose invitations were not all accepted in time."""
    return sweeps.cancel_expired_invitations()


@shared_task(bind=True)
def play_due_timeouts(self) -> int:
    """Periodic (every minute): play the automatic move (P24) where a deadline has passed.

    A full batch means more may be due: the sweep sends itself again (any free worker
    takes it; SKIP LOCKED keeps it from colliding with the beat's next one).
    """
    played = sweeps.play_due_timeouts(limit=DEADLINE_SWEEP_BATCH_SIZE)
    if played >= DEADLINE_SWEEP_BATCH_SIZE:
        self.apply_async(expires=60)
    return played


@shared_task
def resume_due_pauses() -> int:
    """Periodic (every minute): paused games whose longest pause is over run again."""
    return sweeps.resume_due_pauses()


@shared_task
def send_due_reminders() -> int:
    """Periodic (every minute): queue the turn reminders whose time has come."""
    return sweeps.send_due_reminders()


@shared_task
def send_due_digests() -> int:
    """Periodic (every five minutes): queue the daily digests whose local hour has come."""
    return sweeps.send_due_digests()


@shared_task
def play_bot_turn(game_id: str, version: int) -> bool:
    """The bot to move in the game plays one move chosen from ``version`` (games.bots).

    Sent after commit when the turn passes to a bot, with the bot's delay as countdown.
    Run twice, or after the deadline sweep played the move, it finds the version moved on
    and does nothing. Returns whether it moved.
    """
    return actions.do_play_bot_move(game_id, expected_version=version) is not None
