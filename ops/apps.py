"""The ops app: probes and metrics (docs/operating.md "Health and metrics")."""

from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "ops"
    verbose_name = "Operations"

    def ready(self) -> None:
        # deferred: the receiver's module uses the models, which need the app registry
        from celery.signals import task_failure

        # deferred: as above
        from ops.task_failures import count_task_failure

        task_failure.connect(count_task_failure, dispatch_uid="ops.count_task_failure")
