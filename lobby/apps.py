"""App config for lobby (see the package's docstring)."""

from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = "Lobby"

    def ready(self) -> None:
        # deferred: importing tasks registers them in every process; they import models,
        # which load once the app registry is ready.
        from . import tasks  # noqa: F401
