"""Celery tasks of quick match: thin wrappers, safe to run twice."""

from celery import shared_task

from quickmatch import actions


@shared_task
def pair_seeks() -> int:
    """Periodic (every minute), and after each new seek commits: expire the seeks that
    are due, then start a game for every table of compatible waiting seeks; returns how
    many games it started (``quickmatch.actions.pair_waiting_seeks``)."""
    return actions.pair_waiting_seeks()
