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


# --- The move's two writes: what save() writes, in SQL written out ---------------------------


@pytest.fixture
def game(db):
    from tests.factories import make_user, start_game

    return start_game([make_user("anna@example.com"), make_user("ben@example.com")], seed=3)


def test_update_writes_the_named_fields_as_save_does_and_no_others(game):
    from datetime import timedelta

    from django.utils import timezone

    before = Game.objects.get(id=game.id)
    game.version = 7
    game.state = {**game.state, "round": game.state["round"]}  # a JSON column
    game.turn_extension = timedelta(hours=5, seconds=3)  # a duration column
    game.deadline = timezone.now() + timedelta(days=2)
    game.public = not before.public  # changed, but not named: not written
    sql.update(game, ["version", "state", "turn_extension", "deadline", "updated_at"])
    stored = Game.objects.get(id=game.id)
    assert (stored.version, stored.state, stored.turn_extension, stored.deadline) == (
        7,
        game.state,
        timedelta(hours=5, seconds=3),
        game.deadline,
    )
    assert stored.public == before.public
    # auto_now takes the time, on the instance and in the row, as save() has it.
    assert stored.updated_at == game.updated_at > before.updated_at


def test_update_of_a_row_that_is_gone_is_an_error_as_with_save(game):
    from django.db import DatabaseError

    Game.objects.filter(id=game.id).delete()
    with pytest.raises(DatabaseError, match="no row"):
        sql.update(game, ["version"])


def test_insert_writes_every_field_and_gives_the_new_row_its_key(game):
    from django.utils import timezone

    from games.models import Actor, Move

    move = Move(
        game=game,
        number=1,
        round=1,
        seat=0,
        action={"action": "pass", "treasure": "coins", "bury": None},
        revealed=[12, 3],
        automatic=True,
        actor=Actor.SERVICE,
        actor_user=game.host,
        at=timezone.now(),
    )
    sql.insert(move)
    assert move.pk is not None
    assert not move._state.adding
    stored = Move.objects.get(pk=move.pk)
    names = [f.attname for f in Move._meta.concrete_fields]
    assert [getattr(stored, n) for n in names] == [getattr(move, n) for n in names]


def test_insert_breaking_a_constraint_is_djangos_integrity_error(game):
    from django.db import IntegrityError, transaction
    from django.utils import timezone

    from games.models import Move

    def move():
        return Move(game=game, number=1, round=1, seat=0, action={}, at=timezone.now())

    sql.insert(move())
    with pytest.raises(IntegrityError), transaction.atomic():
        sql.insert(move())  # the game's move number 1 again (move_unique_number)


@pytest.mark.parametrize(
    "model_path", ["games.models.Game", "games.models.Move", "notifications.models.OutboundEmail"]
)
def test_nothing_listens_for_the_saves_of_the_rows_a_move_writes_by_hand(model_path):
    """A move writes these rows by ``sql.insert`` and ``sql.update``, which send no save
    signals (decision 0009): a receiver connected for them would miss every move."""
    from django.db.models.signals import post_save, pre_save
    from django.utils.module_loading import import_string

    model = import_string(model_path)
    assert not pre_save.has_listeners(model)
    assert not post_save.has_listeners(model)
