"""Celery tasks of the games app: thin wrappers around actions and sweeps, safe to run twice."""

from celery import shared_task

from games import sweeps


@shared_task
def cancel_expired_invitations() -> int:
    """Periodic: cancel games whose invitations were not all accepted in time."""
    return sweeps.cancel_expired_invitations()
