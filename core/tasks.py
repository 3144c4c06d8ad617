"""Celery tasks looked up by name, for the modules their tasks module wraps.

A ``tasks.py`` is Celery's thin shell over a service module and imports it; the service
module that publishes one of those tasks asks Celery's registry for it by name instead
of importing it back (an import circle). Each app's ``AppConfig.ready`` imports its tasks
module, so the registry holds them in every process (a web server too, not only a
worker). Tests patch a task's ``delay`` on the task itself, the object the registry holds.
"""

from celery import Task, current_app


def task_named(name: str) -> Task:
    """The task registered as ``name`` (``"<app>.tasks.<function>"``); KeyError if none."""
    return current_app.tasks[name]
