"""The database cache's table, where the throttles count when no CACHE_URL is set.

Without it every request that counts itself failed on the missing table (503, "cannot
reach its database") after a plain ``migrate``. ``createcachetable`` makes the table of
each configured ``DatabaseCache`` (none with Redis) on the database being migrated, and
skips tables that exist: safe to run again, and on databases made before this migration.
"""

from django.core.management import call_command
from django.db import migrations


def create_cache_tables(apps, schema_editor) -> None:
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_user_session_generation"),
    ]

    operations = [
        # Reversed: nothing. The table holds only counters, and another app's cache may
        # share it; dropping it would be the operator's choice.
        migrations.RunPython(create_cache_tables, migrations.RunPython.noop, elidable=False),
    ]
