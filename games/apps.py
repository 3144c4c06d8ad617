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
        # Every change reaches the table's live stream after commit (games.live).
        # deferred: games.live imports the models, which load once the app registry is ready.
        from games import live

        live.connect_receivers()
        # A person's vacation or settings change moves the deadlines of the games waiting on
        # them (accounts sends it; it never imports games).
        turn_clock_changed.connect(
            deadlines.on_turn_clock_changed, dispatch_uid="deadlines.turn_clock_changed"
        )
        # A person's export and erasure (issue 26): accounts asks through these signals.
        # Games' erasure receiver connects first of all (games comes first of the apps
        # above accounts in INSTALLED_APPS), and leagues' relies on running after it.
        # deferred: these import models, which load only once the app registry is ready.
        from accounts import erasure, personal_data
        from games import personal_data as games_data
        from games.actions import erasure as games_erasure
        from games.actions import notes, substitutes

        def export(sender, *, user, **kwargs):
            return {
                "games.json": games_data.export_games(user),
                "substitutes.json": games_data.export_substitutes(user),
            }

        def erase(sender, *, user, now, **kwargs):
            games_erasure.erase_seats(user, now)
            notes.erase_notes(user)  # private notes (issue 34) go with the account
            substitutes.erase_seat_offers(user, now)  # offers to their address

        personal_data.export_asked.connect(export, weak=False, dispatch_uid="games.export_asked")
        erasure.erasing_account.connect(erase, weak=False, dispatch_uid="games.erasing_account")
