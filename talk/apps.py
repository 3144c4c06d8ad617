"""App config for table talk."""

from django.apps import AppConfig


class TalkConfig(AppConfig):
    name = "talk"
    verbose_name = "Table talk"

    def ready(self) -> None:
        # deferred: talk.actions imports the models, which load once the app registry is
        # ready; importing talk.emails registers the table talk email's composer.
        from games import table_talk

        # deferred: as above (talk.emails registers the composer; actions has models)
        from . import emails  # noqa: F401
        from .actions import messages_since

        # The turn email and the digest (games.notify) tell of the talk through this
        # signal: games may not import talk (docs/architecture.md "The floors").
        def read_talk(sender, *, game, since, exclude_seat, limit, **kwargs):
            return messages_since(game, since, exclude_seat, limit)

        table_talk.talk_asked.connect(read_talk, weak=False, dispatch_uid="talk.talk_asked")
        # A person's data export (issue 26): accounts asks through its registry.
        # deferred: these import models, which load once the app registry is ready.
        from accounts import personal_data
        from talk.personal_data import export_messages

        personal_data.register_exporter("messages.json", export_messages)
