"""App config for lobby (see the package's docstring)."""

from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = "Lobby"
