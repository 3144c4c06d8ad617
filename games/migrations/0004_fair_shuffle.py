# A checkable shuffle: the game's secret server seed and its public commitment, and each
# seat's public client seed (docs/shuffle.md).

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_turn_clock_reminders_standing_order"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="server_seed",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="game",
            name="seed_commitment",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="seat",
            name="client_seed",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
    ]
