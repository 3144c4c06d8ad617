"""Counters that several processes add to: Celery task failures, per task."""

from django.db import models


class TaskFailureCount(models.Model):
    """How many times a task has failed, in any worker, since the service began.

    A row per task name, added to with one ``UPDATE ... SET count = count + 1``
    (``ops.task_failures``), so increments from many worker processes and machines never
    lose one another, and the count survives restarts: Prometheus reads it as a counter
    (``piratz_celery_task_failures_total``). A per-process counter would show only the
    failures of the process a scrape happens to reach, and the cache (a database table
    without Redis) has no atomic increment and may cull or expire its entries.
    """

    task = models.CharField(max_length=200, unique=True)
    count = models.PositiveBigIntegerField(default=0)
    last_failed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "task failure count"

    def __str__(self) -> str:
        return f"{self.task}: {self.count}"
