"""App config for people (see the package's docstring)."""

from django.apps import AppConfig


class PeopleConfig(AppConfig):
    name = "people"
    verbose_name = "People"
