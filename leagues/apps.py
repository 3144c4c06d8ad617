"""App config for leagues: a season of games among one group of players."""

from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues"

    def ready(self) -> None:
        # deferred: the receiver imports models, which load once the app registry is ready.
        from accounts import erasure
        from games import events, invitation_limits

        # deferred: as above; importing tasks registers them in every process.
        from . import tasks  # noqa: F401

        # deferred: as above (actions imports models).
        from .actions import (
            count_invitations_sent,
            count_unanswered_invitations,
            erase_memberships,
            game_ended,
        )

        # A league game that ends frees its players for the next scheduled ones.
        events.game_ended.connect(game_ended, dispatch_uid="leagues.game_ended")
        # A league's invitations count with a game's against the anti-spam limits.
        invitation_limits.invitations_sent.connect(
            count_invitations_sent, dispatch_uid="leagues.invitations_sent"
        )
        invitation_limits.invitations_unanswered.connect(
            count_unanswered_invitations, dispatch_uid="leagues.invitations_unanswered"
        )

        # A person's erasure (issue 26): they leave their leagues. After the games' receiver
        # (games comes first in INSTALLED_APPS, so it connects first), which has handled
        # their running games.
        def erase(sender, *, user, now, **kwargs):
            erase_memberships(user, now)

        erasure.erasing_account.connect(erase, weak=False, dispatch_uid="leagues.erasing_account")
