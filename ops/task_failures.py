"""Count Celery task failures in the database, for the metrics (``TaskFailureCount``)."""

import logging

from django.db import DatabaseError
from django.db.models import F
from django.utils import timezone

from ops.models import TaskFailureCount

logger = logging.getLogger(__name__)


def record_task_failure(task_name: str) -> None:
    """Add one to ``task_name``'s failures; safe from any number of processes at once.

    ``get_or_create`` makes the row the first time (two racing creators: one wins, the
    other reads it back); the increment is a single guarded UPDATE of the column.
    """
    TaskFailureCount.objects.get_or_create(task=task_name)
    TaskFailureCount.objects.filter(task=task_name).update(
        count=F("count") + 1, last_failed_at=timezone.now()
    )


def count_task_failure(sender=None, **kwargs) -> None:
    """Celery's ``task_failure`` receiver: count it, and never fail the worker doing so.

    When the database is what failed, the failure goes uncounted (the log says so);
    ``/readyz`` reports the database meanwhile.
    """
    task_name = getattr(sender, "name", None) or "unknown"
    try:
        record_task_failure(task_name)
    except DatabaseError as error:
        logger.warning("Could not count a failure of %s: %s", task_name, type(error).__name__)
