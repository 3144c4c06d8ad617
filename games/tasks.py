"""Celery tasks of the games app: thin wrappers around services, safe to run twice."""

from celery import shared_task

from games import services


@shared_task
def cancel_expired_invitations() -> int:
    """Periodic: cancel games whose invitations were not all accepted in time."""
    return services.cancel_expired_invitations()
