"""App config for accounts."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        # Registers the API key scheme with drf-spectacular (extensions register on import),
        # and connects the signal that makes a game-scoped session full on any other sign-in.
        from . import game_scope, schema  # noqa: F401
