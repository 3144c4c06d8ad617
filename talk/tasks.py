"""Celery tasks of table talk: thin wrappers around its sweeps, safe to run twice."""

from celery import shared_task

from talk import emails


@shared_task
def send_due_talk_emails() -> int:
    """Periodic (every minute): queue the table talk emails whose time has come."""
    return emails.send_due_talk_emails()
