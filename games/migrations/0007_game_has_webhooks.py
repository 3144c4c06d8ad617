"""Game.has_webhooks: "this game has at least one enabled webhook", read by every move
instead of asking the cache or the webhooks table; set here from the webhooks table."""

from django.db import migrations, models
from django.db.models import Exists, OuterRef


def set_has_webhooks(apps, schema_editor):
    """Every game's flag from its enabled webhooks. Touches only the rows whose flag is
    wrong (most games have no webhook and keep the column's default), so it may run again
    to repair the flags (``webhooks.delivery.refresh_has_webhooks`` is the per-game form)."""
    Game = apps.get_model("games", "Game")
    Webhook = apps.get_model("webhooks", "Webhook")
    db = schema_editor.connection.alias
    enabled = Exists(
        Webhook.objects.using(db).filter(game_id=OuterRef("pk"), disabled_at__isnull=True)
    )
    Game.objects.using(db).filter(enabled, has_webhooks=False).update(has_webhooks=True)
    Game.objects.using(db).filter(~enabled, has_webhooks=True).update(has_webhooks=False)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_revealed_ids_json"),
        ("webhooks", "0001_webhooks_and_deliveries"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="has_webhooks",
            field=models.BooleanField(
                default=False,
                editable=False,
                help_text="At least one enabled webhook (kept by "
                "webhooks.delivery.refresh_has_webhooks).",
            ),
        ),
        # Backwards: nothing to undo, reversing the AddField drops the column.
        migrations.RunPython(set_has_webhooks, migrations.RunPython.noop),
    ]
