"""App config for accounts."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        # Registers the API key scheme with drf-spectacular (extensions register on import),
        # and connects the signal that makes a game-scoped session full on any other sign-in.
        # deferred: game_scope imports the models, which load once the app registry is ready.
        from . import game_scope, schema  # noqa: F401
