"""App config for quickmatch (see the package's docstring)."""

from django.apps import AppConfig


class QuickmatchConfig(AppConfig):
    name = "quickmatch"
    verbose_name = "Quick match"
