"""Celery tasks of tournaments: thin wrappers, safe to run twice (``tournaments.actions``)."""

from celery import shared_task

from tournaments import actions


@shared_task
def advance_tournament(tournament_id: str) -> bool:
    """After a tournament game ended: close its round if that was the last, pair the next."""
    return actions.advance_tournament(tournament_id)


@shared_task
def start_due_tournaments() -> int:
    """Periodic: start the tournaments whose start time has come (round 1)."""
    return actions.start_due_tournaments()


@shared_task
def close_overdue_rounds() -> int:
    """Periodic: close the rounds past their deadline and pair the next."""
    return actions.close_overdue_rounds()


@shared_task
def advance_running_tournaments() -> int:
    """Periodic: ``advance_tournament`` for every tournament under way (a lost task's work)."""
    return actions.advance_running_tournaments()
