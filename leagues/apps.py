"""App config for leagues: a season of games among one group of players."""

from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues"

    def ready(self) -> None:
        # deferred: the receiver imports models, which load once the app registry is ready.
        from games import events

        # deferred: as above; importing tasks registers them in every process.
        from . import tasks  # noqa: F401

        # deferred: as above (actions imports models).
        from .actions import game_ended

        # A league game that ends frees its players for the next scheduled ones.
        events.game_ended.connect(game_ended, dispatch_uid="leagues.game_ended")
