# BuriedCard now belongs to the Piratz app (piratz.0001, same table games_buriedcard):
# removed from games' state only, no data moves.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_end_reason_erased"),
        ("piratz", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="BuriedCard")],
            database_operations=[],
        ),
    ]
