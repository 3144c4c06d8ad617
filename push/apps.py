"""App config for push: Web Push messages for game news (docs/push.md)."""

from django.apps import AppConfig
from django.conf import settings
from django.core import checks


class PushConfig(AppConfig):
    name = "push"
    verbose_name = "Push messages"

    def ready(self) -> None:
        # deferred: delivery and personal_data import models, which load once the app
        # registry is ready; tasks registers the send task in every process (delivery
        # publishes it by name).
        from accounts import erasure, personal_data
        from games import news_channels

        # deferred: as above (models, and the task registered in every process).
        from . import delivery, tasks  # noqa: F401

        # deferred: as above (models).
        from .personal_data import erase_push, export_push

        # Game news a person sends to their devices (games.notify, through this signal).
        def send_news(sender, *, game, user, kind, not_before, send_check, **kwargs):
            return delivery.queue_news(game, user, kind, not_before, send_check)

        news_channels.news_elsewhere.connect(
            send_news, weak=False, dispatch_uid="push.news_elsewhere"
        )

        # A person's export and erasure (issue 26): accounts asks through these signals.
        def export(sender, *, user, **kwargs):
            return {"push_subscriptions.json": export_push(user)}

        def erase(sender, *, user, now, **kwargs):
            erase_push(user, now)

        personal_data.export_asked.connect(export, weak=False, dispatch_uid="push.export_asked")
        erasure.erasing_account.connect(erase, weak=False, dispatch_uid="push.erasing_account")
        checks.register(check_insecure_endpoints, checks.Tags.security, deploy=True)


def check_insecure_endpoints(app_configs, **kwargs):
    """``check --deploy``: push endpoints allowed over plain HTTP. Push itself is optional:
    without VAPID keys the settings page offers none (docs/push.md), which is no issue."""
    if getattr(settings, "PUSH_ALLOW_INSECURE_LOCALHOST", False):
        return [
            checks.Warning(
                "PUSH_ALLOW_INSECURE_LOCALHOST is on: push endpoints may be plain HTTP on "
                "this machine's loopback address.",
                hint="Leave it off in production.",
                id="push.W002",
            )
        ]
    return []
