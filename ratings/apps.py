"""App config for ratings: a rating per player and game, moved by finished games."""

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        # deferred: the service imports models, which load once the app registry is ready.
        from accounts import personal_data
        from games import events

        # deferred: as above (the service and the representation import the models).
        from .representation import export_ratings
        from .service import on_game_ended

        # Games may not import ratings (docs/architecture.md "The floors"): it tells of a
        # game's end with this signal, sent inside the transaction that ended it.
        events.game_ended.connect(on_game_ended, dispatch_uid="ratings.game_ended")

        # A person's data export (issue 26). No eraser: the ratings stay with the game
        # records (other players' ratings were computed from them); an erased account is
        # nobody's player page and is left off the leaderboards.
        def export(sender, *, user, **kwargs):
            return {"ratings.json": export_ratings(user)}

        personal_data.export_asked.connect(export, weak=False, dispatch_uid="ratings.export_asked")
