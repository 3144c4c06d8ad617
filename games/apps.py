"""App config for games."""

from django.apps import AppConfig

from accounts.signals import turn_clock_changed


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        # deferred: these import models, which load only once the app registry is ready.
        # notify's messages composed when sent: their composers and the turn email's send
        # check; tasks: the bot turn task registered in every process, so games.bots
        # publishes it by name (core.tasks.task_named).
        from games import bots, deadlines, events, tasks  # noqa: F401
        from games.notify import auto_moved, game_over, turn  # noqa: F401

        # When the turn passes to a bot, its task is scheduled (after commit).
        events.move_applied.connect(bots.on_move_applied, dispatch_uid="bots.move_applied")
        events.game_started.connect(bots.on_game_started, dispatch_uid="bots.game_started")
        # A person's vacation or settings change moves the deadlines of the games waiting on
        # them (accounts sends it; it never imports games).
        turn_clock_changed.connect(
            deadlines.on_turn_clock_changed, dispatch_uid="deadlines.turn_clock_changed"
        )
        # A person's export and erasure (issue 26): accounts asks through its registries.
        # deferred: these import models, which load only once the app registry is ready.
        from accounts import erasure, personal_data
        from games import personal_data as games_data
        from games.actions import erasure as games_erasure

        personal_data.register_exporter("games.json", games_data.export_games)
        erasure.register_eraser("games", games_erasure.erase_seats)
