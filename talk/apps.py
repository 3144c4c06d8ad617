"""App config for table talk."""

from django.apps import AppConfig

from talk import events


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
        # A message reaches the table's live stream after commit (games.live), with the
        # game's version as it is: talk does not change it.
        # deferred: games.live imports the models, which load once the app registry is ready.
        from games import live

        def tell_the_table(sender, *, message, **kwargs):
            live.announce_on_commit(message.game, live.TALK)

        events.message_posted.connect(tell_the_table, weak=False, dispatch_uid="talk.live")
        # A person's data export (issue 26): accounts asks through this signal.
        # deferred: these import models, which load once the app registry is ready.
        from accounts import personal_data
        from talk.personal_data import export_messages

        def export(sender, *, user, **kwargs):
            return {"messages.json": export_messages(user)}

        personal_data.export_asked.connect(export, weak=False, dispatch_uid="talk.export_asked")
