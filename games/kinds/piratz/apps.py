"""App config for Piratz (a game is one Django app, docs/adding-a-game.md)."""

from django.apps import AppConfig


class PiratzConfig(AppConfig):
    name = "games.kinds.piratz"
    label = "piratz"
    verbose_name = "Piratz"
