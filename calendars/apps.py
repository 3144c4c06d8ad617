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
        erasure.register_eraser("calendar_feed", delete_feed_of)
        personal_data.register_exporter("calendar_feed.json", export_feed)
