"""App config for Rattenscharf (a game is one Django app, docs/adding-a-game.md)."""

from django.apps import AppConfig


class RattenscharfConfig(AppConfig):
    name = "games.kinds.rattenscharf"
    label = "rattenscharf"
    verbose_name = "Rattenscharf"
