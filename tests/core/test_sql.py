"""core.sql: the quoted names of hand-written SQL follow the models."""

import pytest
from django.db import connection

from accounts.models import ApiToken, User
from core import sql
from games.models import Game


def quoted(name: str) -> str:
    return connection.ops.quote_name(name)


def test_a_table_is_the_models_own_quoted():
    assert sql.table(Game, connection) == quoted(Game._meta.db_table) == quoted("games_game")


def test_a_column_is_qualified_by_its_table_and_a_foreign_key_names_its_id_column():
    assert sql.column(User, "email", connection) == f"{quoted('accounts_user')}.{quoted('email')}"
    assert sql.column(ApiToken, "user", connection).endswith(f".{quoted('user_id')}")


def test_a_field_without_a_column_of_its_own_is_refused():
    with pytest.raises(ValueError, match="no column"):
        sql.column(User, "api_tokens", connection)  # the reverse side of ApiToken.user
