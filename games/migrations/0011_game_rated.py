# Rated games (the ratings app, docs/ratings.md): a new game is rated unless its host chose
# unrated or a bot holds a seat; the games before this were never chosen either way, so
# those with a bot's own seat are marked unrated and every other one rated.

from django.db import migrations, models


def bot_games_unrated(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Game.objects.filter(seats__user__isnull=True).update(rated=False)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_indexes_for_a_players_games"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="rated",
            field=models.BooleanField(default=True),
        ),
        migrations.RunPython(bot_games_unrated, migrations.RunPython.noop),
    ]
