"""Celery tasks of leagues: thin wrappers, safe to run twice."""

from celery import shared_task

from leagues import actions


@shared_task
def advance_league(league_id: str) -> int:
    """After a league game ended: start the next scheduled games, or end the league."""
    return actions.advance_league(league_id)


@shared_task
def advance_active_leagues() -> int:
    """Periodic: ``advance_league`` for every league under way (what a lost task left)."""
    return actions.advance_active_leagues()


@shared_task
def send_weekly_standings() -> int:
    """Periodic: the weekly standings emails, once per member and week."""
    return actions.send_weekly_standings()
