"""App config for quickmatch (see the package's docstring)."""

from django.apps import AppConfig


class QuickmatchConfig(AppConfig):
    name = "quickmatch"
    verbose_name = "Quick match"

    def ready(self) -> None:
        # deferred: these import models, which load once the app registry is ready.
        from accounts import erasure, personal_data

        # deferred: as above; importing tasks registers them in every process.
        from . import tasks  # noqa: F401

        # deferred: as above (actions imports the models).
        from .actions import export_seeks, withdraw_seeks_of

        # A deleted account's waiting seeks are withdrawn: nobody is paired with them. The
        # export lists a person's seeks (accounts may not import quickmatch: the floors).
        def erase(sender, *, user, now, **kwargs):
            withdraw_seeks_of(user, now)

        def export(sender, *, user, **kwargs):
            return {"quickmatch_seeks.json": export_seeks(user)}

        erasure.erasing_account.connect(
            erase, weak=False, dispatch_uid="quickmatch.erasing_account"
        )
        personal_data.export_asked.connect(
            export, weak=False, dispatch_uid="quickmatch.export_asked"
        )
