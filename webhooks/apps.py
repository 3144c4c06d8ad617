"""App config for webhooks: listens to the games' events (``games.events``)."""

from django.apps import AppConfig
from django.core import checks


class WebhooksConfig(AppConfig):
    name = "webhooks"
    verbose_name = "Webhooks"

    def ready(self) -> None:
        from games import events

        from . import receivers

        events.move_applied.connect(receivers.queue_move, dispatch_uid="webhooks.move")
        events.game_ended.connect(receivers.queue_end, dispatch_uid="webhooks.end")
        checks.register(check_insecure_localhost, checks.Tags.security, deploy=True)


def check_insecure_localhost(app_configs, **kwargs):
    """``check --deploy``: the loopback allowance is for tests and local runs only."""
    from django.conf import settings

    if getattr(settings, "WEBHOOKS_ALLOW_INSECURE_LOCALHOST", False):
        return [
            checks.Warning(
                "WEBHOOKS_ALLOW_INSECURE_LOCALHOST is on: webhooks may post over plain HTTP "
                "to this machine's loopback addresses.",
                hint="Leave it off in production.",
                id="webhooks.W001",
            )
        ]
    return []
