"""Hot queries compiled once per database connection, then run with new parameters.

Django compiles a queryset's SQL every time it is evaluated. For the few queries every
move and every game GET runs (the game's seats with their users, settings and running
vacation; the game row) compiling cost more CPU than PostgreSQL spent running them
(BENCHMARKS.md "Move path": ~1 ms for the seats query alone). ``PreparedQuery`` builds
the queryset once per connection with stand-in values, keeps Django's compiler with its
SQL, and afterwards only swaps the parameters: the rows become model instances by
Django's own code (``ModelIterable``: ``select_related`` objects, annotations), so the
result is what evaluating the queryset gives.
"""

import copy
import uuid
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import DateTimeField, Field, IntegerField, QuerySet, UUIDField
from django.db.transaction import TransactionManagementError

# Stand-in values no real query parameter takes (the n-th parameter of a query gets the
# n-th of its kind, so that two datetimes are told apart): the compiled parameters equal
# to one of them are the places where the caller's values go.
_STAND_INS = {
    UUIDField: lambda n: uuid.UUID(int=0x5E47A1D0_0000_4000_8000_00000000BE00 + n),
    IntegerField: lambda n: -918_273_645 - n,
    DateTimeField: lambda n: datetime(1901, 2, 3, 4, 5, 6, 789_012, tzinfo=UTC) + timedelta(days=n),
}


@dataclass(frozen=True)
class _Compiled:
    queryset: QuerySet
    compiler: object
    sql: str
    params: tuple
    slots: tuple[tuple[int, str], ...]  # (position in params, parameter name)


class PreparedQuery:
    """A queryset shape compiled once per connection: ``fetch(**values)`` returns its rows
    as a list of model instances, as ``list(build(**values))`` would.

    ``build(**values)`` makes the queryset; ``parameters`` name each value and the model
    field it is compared with (its type decides how the value is sent to the database:
    a UUID, integer or datetime field, or a foreign key to a UUID or integer key). Each
    value must reach the SQL as a parameter, and ``build`` must not branch on the values:
    the first call's SQL serves all the others. A queryset locking rows
    (``select_for_update``) must be fetched inside a transaction, as Django requires.
    """

    def __init__(self, build: Callable[..., QuerySet], **parameters: Field):
        for name, field in parameters.items():
            if _stand_in_for(field, 0) is None:
                raise TypeError(f"{name}: no stand-in value for a {type(field).__name__}")
        self._build = build
        self._parameters = parameters

    def fetch(self, **values) -> list:
        if values.keys() != self._parameters.keys():
            raise TypeError(f"fetch() takes exactly {sorted(self._parameters)}")
        compiled = self._compiled()
        connection = compiled.compiler.connection
        if (
            compiled.queryset.query.select_for_update
            and connection.features.has_select_for_update
            and connection.get_autocommit()
        ):  # as Django's compiler checks it, which is skipped now
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = list(compiled.params)
        for position, name in compiled.slots:
            params[position] = self._parameters[name].get_db_prep_value(
                values[name], connection, prepared=False
            )
        sql, params = compiled.sql, tuple(params)
        compiler = copy.copy(compiled.compiler)
        compiler.as_sql = lambda *args, **kwargs: (sql, params)
        queryset = compiled.queryset._chain()
        queryset.query.get_compiler = lambda *args, **kwargs: compiler
        return list(queryset)

    def _compiled(self) -> _Compiled:
        # Kept on the connection (Django's are per thread): a compiler belongs to one, and
        # goes with it. Keyed by the query itself, weakly: not by ``id(self)``, which a
        # query made after this one is collected may get again, and run this one's SQL.
        connection = connections[DEFAULT_DB_ALIAS]
        try:
            by_query = connection._prepared_queries
        except AttributeError:
            by_query = connection._prepared_queries = weakref.WeakKeyDictionary()
        compiled = by_query.get(self)
        if compiled is None:
            compiled = by_query[self] = self._compile(connection)
        return compiled

    def _compile(self, connection) -> _Compiled:
        stand_ins = {
            name: _stand_in_for(field, n)
            for n, (name, field) in enumerate(self._parameters.items())
        }
        queryset = self._build(**stand_ins)
        if queryset.db != connection.alias:
            raise ValueError(f"a prepared query runs on {connection.alias!r}, not {queryset.db!r}")
        compiler = queryset.query.get_compiler(using=queryset.db)
        sql, params = compiler.as_sql()
        slots = []
        for name, field in self._parameters.items():
            sent = field.get_db_prep_value(stand_ins[name], connection, prepared=False)
            places = [i for i, param in enumerate(params) if param == sent]
            if not places:
                raise ValueError(f"{name} does not reach the SQL as a parameter")
            slots += [(place, name) for place in places]
        return _Compiled(queryset, compiler, sql, tuple(params), tuple(slots))


def _stand_in_for(field: Field, n: int):
    if field.is_relation:  # a foreign key is sent as the key it points to
        field = field.target_field
    for field_class, make in _STAND_INS.items():
        if isinstance(field, field_class):
            return make(n)
    return None
