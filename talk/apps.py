"""App config for table talk."""

from django.apps import AppConfig


class TalkConfig(AppConfig):
    name = "talk"
    verbose_name = "Table talk"

    def ready(self) -> None:
        # deferred: talk.actions imports the models, which load once the app registry is ready.
        from games import table_talk

        from .actions import messages_since

        # The turn email and the digest (games.notify) tell of the talk through this
        # registry: games may not import talk (docs/architecture.md "The floors").
        table_talk.register_reader(messages_since)
