"""App config for accounts."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        # Registers the API key scheme with drf-spectacular (extensions register on import).
        from . import schema  # noqa: F401
