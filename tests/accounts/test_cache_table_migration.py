"""`migrate` alone makes the database cache's table: the throttles can count from the first
request on (before, every request answered 503 until `createcachetable` was run)."""

import os
import sqlite3
import subprocess
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import override_settings

ROOT = Path(__file__).resolve().parents[2]
MIGRATION = ("accounts", "0007_cache_table")


def _database_cache(table: str) -> dict:
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": table,
        }
    }


def _apply_cache_table_migration() -> None:
    """Run the migration's operations on the test database, as ``migrate`` does."""
    executor = MigrationExecutor(connection)
    migration = executor.loader.get_migration(*MIGRATION)
    state = executor.loader.project_state(MIGRATION, at_end=False)
    with connection.schema_editor(atomic=migration.atomic) as schema_editor:
        migration.apply(state, schema_editor)


@pytest.mark.django_db(transaction=True)
def test_the_migration_creates_the_table_of_a_database_cache():
    table = "test_migrated_cache"
    assert table not in connection.introspection.table_names()
    try:
        with override_settings(CACHES=_database_cache(table)):
            _apply_cache_table_migration()
            assert table in connection.introspection.table_names()
            _apply_cache_table_migration()  # again: a table that exists is left alone
    finally:
        with connection.schema_editor() as schema_editor:
            schema_editor.execute(schema_editor.sql_delete_table % {"table": table})


@pytest.mark.django_db(transaction=True)
def test_the_migration_creates_nothing_for_a_cache_elsewhere():
    before = set(connection.introspection.table_names())
    _apply_cache_table_migration()  # the tests' in-memory cache: no table to make
    assert set(connection.introspection.table_names()) == before


@pytest.mark.slow
def test_migrate_alone_leaves_a_fresh_database_with_the_cache_table(tmp_path):
    """The real command on a new SQLite file, with the production settings' default cache."""
    database = tmp_path / "fresh.sqlite3"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CACHE_URL"))}
    env.update(
        DATABASE_URL=f"sqlite:///{database}",
        SECRET_KEY="migrate-test-" + "x" * 50,
        DJANGO_SETTINGS_MODULE="piratz_site.settings",
    )
    subprocess.run(
        [str(ROOT / ".venv" / "bin" / "python"), "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=300,
    )
    with sqlite3.connect(database) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert "piratz_cache" in tables
