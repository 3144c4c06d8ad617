"""App config for people (see the package's docstring)."""

from django.apps import AppConfig


class PeopleConfig(AppConfig):
    name = "people"
    verbose_name = "People"

    def ready(self) -> None:
        # deferred: the receivers import models, which load once the app registry is ready.
        from accounts import erasure, personal_data
        from games import events, invitation_limits

        # deferred: as above.
        from .actions import erase_people
        from .blocks import blocks_any_address
        from .emails import tell_followers_game_ended, tell_followers_game_started
        from .personal_data import export_people

        # Followers hear of a followed game's end and of a followed player's public game.
        events.game_ended.connect(tell_followers_game_ended, dispatch_uid="people.game_ended")
        events.game_started.connect(tell_followers_game_started, dispatch_uid="people.game_started")

        # Blocked people never meet: no invitation goes between them, by any door.
        def refuse_blocked(sender, *, inviter, emails, **kwargs):
            return blocks_any_address(inviter.pk, emails)

        invitation_limits.invitation_refused.connect(
            refuse_blocked, weak=False, dispatch_uid="people.invitation_refused"
        )

        # A person's export and erasure (accounts asks through these signals).
        def export(sender, *, user, **kwargs):
            return {"people.json": export_people(user)}

        def erase(sender, *, user, now, **kwargs):
            erase_people(user, now)

        personal_data.export_asked.connect(export, weak=False, dispatch_uid="people.export_asked")
        erasure.erasing_account.connect(erase, weak=False, dispatch_uid="people.erasing_account")
