"""App config for playing by email reply: listens to anymail's inbound signal."""

from django.apps import AppConfig


class MailinConfig(AppConfig):
    name = "mailin"
    verbose_name = "Replies by email"

    def ready(self) -> None:
        from anymail.signals import inbound

        from . import handler

        # Both ways mail arrives (the provider's webhook, `manage.py receive_email`) send
        # this one signal, so there is one handler.
        inbound.connect(handler.on_inbound, dispatch_uid="mailin.inbound")
