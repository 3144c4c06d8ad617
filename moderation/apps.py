"""The moderation app's configuration."""

from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = "Moderation"

    def ready(self) -> None:
        # A person's data export (issue 26): accounts asks through this signal.
        # deferred: these import models, which load once the app registry is ready.
        from accounts import personal_data
        from moderation.personal_data import export_reports

        def export(sender, *, user, **kwargs):
            return {"reports.json": export_reports(user)}

        personal_data.export_asked.connect(
            export, weak=False, dispatch_uid="moderation.export_asked"
        )
