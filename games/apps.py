"""App config for games."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from games import bots, events, notify  # noqa: F401  (notify: its email composers)

        # When the turn passes to a bot, its task is scheduled (after commit).
        events.move_applied.connect(bots.on_move_applied, dispatch_uid="bots.move_applied")
        events.game_started.connect(bots.on_game_started, dispatch_uid="bots.game_started")
