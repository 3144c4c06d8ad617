"""Names for SQL written out by hand (``raw``): a model's table and its fields' columns,
quoted for one database connection.

The ORM names these itself; the few reads that write their SQL out once, because the
ORM's compiling of them was a large share of a move (decision 0009), take the names from
here, so that a renamed table, field or column follows them as it follows the ORM.
"""

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model


def table(model: type[Model], connection: BaseDatabaseWrapper) -> str:
    """``model``'s table, quoted for ``connection``."""
    return connection.ops.quote_name(model._meta.db_table)


def column(model: type[Model], name: str, connection: BaseDatabaseWrapper) -> str:
    """The column of ``model``'s field ``name`` (a concrete field: for a foreign key, its
    ``_id`` column), qualified by the table and quoted for ``connection``."""
    field = model._meta.get_field(name)
    if not isinstance(field, Field) or not field.column:
        raise ValueError(f"{model.__name__}.{name} has no column of its own")
    return f"{table(model, connection)}.{connection.ops.quote_name(field.column)}"
