"""SQL written out by hand: a model's table and its fields' columns, quoted for one
database connection, and the writes of a move's rows (``insert``, ``update``).

The ORM names these itself; the few reads and writes that write their SQL out, because
the ORM's compiling of them was a large share of a move (decision 0009), take the names
from here, so that a renamed table, field or column follows them as it follows the ORM.
"""

from collections.abc import Sequence

from django.db import DatabaseError, connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model


def table(model: type[Model], connection: BaseDatabaseWrapper) -> str:
    """``model``'s table, quoted for ``connection``."""
    return connection.ops.quote_name(model._meta.db_table)


def column(model: type[Model], name: str, connection: BaseDatabaseWrapper) -> str:
    """The column of ``model``'s field ``name`` (a concrete field: for a foreign key, its
    ``_id`` column), qualified by the table and quoted for ``connection``."""
    return f"{table(model, connection)}.{_quoted_column(_stored(model, name), connection)}"


def _stored(model: type[Model], name: str) -> Field:
    """``model``'s field ``name``, which must have a column of its own."""
    field = model._meta.get_field(name)
    if not isinstance(field, Field) or not field.column:
        raise ValueError(f"{model.__name__}.{name} has no column of its own")
    return field


def _quoted_column(field: Field, connection: BaseDatabaseWrapper) -> str:
    """The column of the concrete ``field``, unqualified, quoted for ``connection``."""
    assert field.column is not None  # concrete fields have one
    return connection.ops.quote_name(field.column)


def _prepared(instance: Model, fields: Sequence[Field], connection, *, add: bool) -> list:
    """The values of ``fields`` of ``instance`` as a save writes them: each field's
    ``pre_save`` (``auto_now`` and ``auto_now_add`` take the time, ``add`` for a new row),
    then its ``get_db_prep_save`` for ``connection``."""
    return [field.get_db_prep_save(field.pre_save(instance, add), connection) for field in fields]


def update(instance: Model, names: Sequence[str]) -> None:
    """Write the fields ``names`` of ``instance`` to its row: one UPDATE by primary key.

    What ``instance.save(update_fields=names)`` writes, as ``QuerySet.update`` does it: no
    ``pre_save``/``post_save`` signals. Raises ``DatabaseError`` when no row was written,
    as ``save(update_fields=...)`` does.
    """
    model = type(instance)
    connection = connections[router.db_for_write(model, instance=instance)]
    key = model._meta.pk
    assert key is not None
    fields = [_stored(model, name) for name in names]
    assignments = ", ".join(f"{_quoted_column(field, connection)} = %s" for field in fields)
    params = _prepared(instance, fields, connection, add=False)
    params.append(key.get_db_prep_value(instance.pk, connection))
    query = (
        f"UPDATE {table(model, connection)} SET {assignments}"
        f" WHERE {_quoted_column(key, connection)} = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(query, params)
        if cursor.rowcount != 1:
            raise DatabaseError(f"{model.__name__} {instance.pk}: no row to update")


def insert(instance: Model) -> None:
    """Insert the new ``instance``'s row: one INSERT, which gives a key the database
    makes (an ``AutoField``'s) back to the instance (``RETURNING``).

    Every concrete field, as ``instance.save()`` of a new instance writes them, without
    the ``pre_save``/``post_save`` signals (as ``QuerySet.bulk_create``). Afterwards the
    instance is saved as after ``save()``: ``_state.adding`` false, ``_state.db`` its
    database.
    """
    model = type(instance)
    connection = connections[router.db_for_write(model, instance=instance)]
    key = model._meta.pk
    assert key is not None
    made_by_database = instance.pk is None
    fields = [
        field
        for field in model._meta.concrete_fields
        if not field.generated and not (field is key and made_by_database)
    ]
    query = (
        f"INSERT INTO {table(model, connection)}"
        f" ({', '.join(_quoted_column(field, connection) for field in fields)})"
        f" VALUES ({', '.join(['%s'] * len(fields))})"
    )
    if made_by_database:
        query += f" RETURNING {_quoted_column(key, connection)}"
    with connection.cursor() as cursor:
        cursor.execute(query, _prepared(instance, fields, connection, add=True))
        if made_by_database:
            (instance.pk,) = cursor.fetchone()
    instance._state.adding = False
    instance._state.db = connection.alias
