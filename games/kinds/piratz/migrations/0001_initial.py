# BuriedCard moves here from games (games.0014) without moving data: the table stays
# games_buriedcard, so this changes only Django's state.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("games", "0013_end_reason_erased"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="BuriedCard",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("round", models.PositiveSmallIntegerField()),
                        ("seat", models.PositiveSmallIntegerField()),
                        (
                            "card",
                            models.PositiveSmallIntegerField(help_text="The card's id in the deck."),
                        ),
                        (
                            "game",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="burials",
                                to="games.game",
                            ),
                        ),
                        (
                            "move",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="burial",
                                to="games.move",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_buriedcard",
                        "ordering": ["game_id", "id"],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
