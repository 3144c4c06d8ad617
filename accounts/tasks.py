"""Celery tasks of the accounts app: thin wrappers around its functions, safe to run twice."""

from celery import shared_task

from . import login_links


@shared_task
def purge_login_links() -> int:
    """Periodic: delete login-link rows that are expired and outside the hourly cap's window."""
    return login_links.purge_login_links()
