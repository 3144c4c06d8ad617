"""App config for webhooks: listens to the games' events (``games.events``) and table
talk's (``talk.events``), and keeps
``Game.has_webhooks`` with its webhooks."""

from django.apps import AppConfig
from django.conf import settings
from django.core import checks
from django.db.models.signals import post_delete, post_save, pre_delete

from games import events
from talk import events as talk_events


class WebhooksConfig(AppConfig):
    name = "webhooks"
    verbose_name = "Webhooks"

    def ready(self) -> None:
        # deferred: receivers and models need the app registry, not ready while apps load;
        # tasks registers the send task in every process, so delivery publishes it by name.
        from . import receivers, tasks  # noqa: F401
        from .models import Webhook

        events.move_applied.connect(receivers.queue_move, dispatch_uid="webhooks.move")
        events.game_ended.connect(receivers.queue_end, dispatch_uid="webhooks.end")
        events.clock_changed.connect(receivers.queue_clock, dispatch_uid="webhooks.clock")
        talk_events.message_posted.connect(receivers.queue_message, dispatch_uid="webhooks.message")
        # Game.has_webhooks follows every webhook's saves and deletes; the bulk update
        # that disables them refreshes it itself (webhooks.delivery.disable_webhooks).
        post_save.connect(
            receivers.refresh_after_save, sender=Webhook, dispatch_uid="webhooks.flag.save"
        )
        pre_delete.connect(
            receivers.lock_before_delete, sender=Webhook, dispatch_uid="webhooks.flag.lock"
        )
        post_delete.connect(
            receivers.refresh_after_delete, sender=Webhook, dispatch_uid="webhooks.flag.delete"
        )
        checks.register(check_insecure_localhost, checks.Tags.security, deploy=True)
        # A person's export and erasure (issue 26): accounts asks through these signals.
        # deferred: these import models, which load once the app registry is ready.
        from accounts import erasure, personal_data
        from webhooks.personal_data import erase_webhooks, export_webhooks

        def export(sender, *, user, **kwargs):
            return {"webhooks.json": export_webhooks(user)}

        def erase(sender, *, user, now, **kwargs):
            erase_webhooks(user, now)

        personal_data.export_asked.connect(export, weak=False, dispatch_uid="webhooks.export_asked")
        erasure.erasing_account.connect(erase, weak=False, dispatch_uid="webhooks.erasing_account")


def check_insecure_localhost(app_configs, **kwargs):
    """``check --deploy``: the loopback allowance is for tests and local runs only."""
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
