"""App config for notifications."""

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # deferred: registers the send tasks in every process, not only in workers (which
        # import tasks modules at start), so the outbox can publish them by name
        # (core.tasks.task_named); they import the models, ready only now.
        from . import tasks  # noqa: F401
