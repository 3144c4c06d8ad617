"""App config for tournaments: Swiss and single elimination (docs/tournaments.md)."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # deferred: the receivers import models, which load once the app registry is ready.
        from accounts import erasure, personal_data
        from games import events, invitation_limits

        # deferred: as above; importing tasks registers them in every process.
        from . import tasks  # noqa: F401

        # deferred: as above (actions imports models).
        from .actions import (
            count_invitations_sent,
            count_unanswered_invitations,
            erase_entries,
            export_entries,
            game_ended,
        )

        # A tournament game's end is its pairing's result; the round may then be over.
        events.game_ended.connect(game_ended, dispatch_uid="tournaments.game_ended")
        # A tournament's invitations count with a game's against the anti-spam limits.
        invitation_limits.invitations_sent.connect(
            count_invitations_sent, dispatch_uid="tournaments.invitations_sent"
        )
        invitation_limits.invitations_unanswered.connect(
            count_unanswered_invitations, dispatch_uid="tournaments.invitations_unanswered"
        )

        def export(sender, *, user, **kwargs):
            return {"tournaments.json": export_entries(user)}

        # After the games' eraser (games comes first in INSTALLED_APPS), which has handed
        # the person's running games to stand-in bots.
        def erase(sender, *, user, now, **kwargs):
            erase_entries(user, now)

        personal_data.export_asked.connect(
            export, weak=False, dispatch_uid="tournaments.export_asked"
        )
        erasure.erasing_account.connect(
            erase, weak=False, dispatch_uid="tournaments.erasing_account"
        )
