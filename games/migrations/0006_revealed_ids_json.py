"""Move.revealed holds JSON ids: one card id (Piratz) or a list of strip ids (Rattenscharf,
R33: a move that ends a turn reveals the next hand of one or two strips)."""

from django.db import migrations, models


def copy_ids(apps, schema_editor):
    Move = apps.get_model("games", "Move")
    for move in Move.objects.exclude(revealed_card=None).only("id", "revealed_card").iterator():
        Move.objects.filter(id=move.id).update(revealed=move.revealed_card)


def copy_back(apps, schema_editor):
    Move = apps.get_model("games", "Move")
    for move in Move.objects.exclude(revealed=None).only("id", "revealed").iterator():
        if isinstance(move.revealed, int):
            Move.objects.filter(id=move.id).update(revealed_card=move.revealed)


class Migration(migrations.Migration):
    dependencies = [("games", "0005_bots_at_the_table")]

    operations = [
        migrations.RenameField("move", "revealed", "revealed_card"),
        migrations.AddField(
            model_name="move",
            name="revealed",
            field=models.JSONField(
                blank=True,
                null=True,
                help_text="What the move turned up, as ids: a card id (Piratz) or a list "
                "of strip ids (Rattenscharf).",
            ),
        ),
        migrations.RunPython(copy_ids, copy_back, elidable=True),
        migrations.RemoveField("move", "revealed_card"),
    ]
