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

        news_channels.register_sender(delivery.queue_news)
        personal_data.register_exporter("push_subscriptions.json", export_push)
        erasure.register_eraser("push", erase_push)
        checks.register(check_vapid_keys, checks.Tags.security, deploy=True)


def check_vapid_keys(app_configs, **kwargs):
    """``check --deploy``: without VAPID keys no push message can be sent."""
    if not (settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY):
        return [
            checks.Warning(
                "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not set: the settings page offers "
                "no push messages and none is sent.",
                hint="Make a pair with `manage.py make_vapid_keys`; put them in the environment.",
                id="push.W001",
            )
        ]
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
