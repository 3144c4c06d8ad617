"""Celery tasks of lobby: thin wrappers, safe to run twice."""

from celery import shared_task

from lobby import actions


@shared_task
def expire_open_games() -> int:
    """Periodic: close the open games whose seats were not all taken in time."""
    return actions.expire_open_games()
