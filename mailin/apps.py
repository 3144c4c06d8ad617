"""App config for playing by email reply: listens to anymail's inbound signal."""

from anymail.signals import inbound
from django.apps import AppConfig


class MailinConfig(AppConfig):
    name = "mailin"
    verbose_name = "Replies by email"

    def ready(self) -> None:
        # deferred: the handler imports the models, which load once the app registry is ready.
        from . import handler

        # Both ways mail arrives (the provider's webhook, `manage.py receive_email`) send
        # this one signal, so there is one handler.
        inbound.connect(handler.on_inbound, dispatch_uid="mailin.inbound")
