"""App config for calendar feeds."""

from django.apps import AppConfig


class CalendarsConfig(AppConfig):
    name = "calendars"
    verbose_name = "Calendar feeds"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # deferred: these import models, which load once the app registry is ready.
        from accounts import erasure, personal_data

        # deferred: as above (feeds imports the models)
        from .feeds import delete_feed_of, export_feed

        # Deleting an account deletes its feed; the export tells whether one exists
        # (accounts may not import calendars: docs/architecture.md "The floors").
        def erase(sender, *, user, now, **kwargs):
            delete_feed_of(user, now)

        def export(sender, *, user, **kwargs):
            return {"calendar_feed.json": export_feed(user)}

        erasure.erasing_account.connect(erase, weak=False, dispatch_uid="calendars.erasing_account")
        personal_data.export_asked.connect(
            export, weak=False, dispatch_uid="calendars.export_asked"
        )
