"""piratz_site.prepared: a hot query compiled once per connection gives what the queryset
gives, for any values, and what uses it (the seats of a game, the game GET, the lock)."""

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.db.models import DateTimeField
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from accounts.models import Vacation
from games import queries
from games.errors import GameError
from games.models import Game, Seat
from piratz_site.prepared import PreparedQuery
from tests.factories import start_game

pytestmark = pytest.mark.django_db


def _seats(now):
    return queries._seats_with_users(now)


SEATS = PreparedQuery(
    lambda game_id, now: _seats(now).filter(game_id=game_id),
    game_id=Seat._meta.get_field("game"),
    now=DateTimeField(),
)


def _as_rows(seats):
    return [
        (
            s.id,
            s.seat,
            s.user_id,
            s.user.email,
            s.user.notification_settings.mode if hasattr(s.user, "notification_settings") else None,
            s.on_vacation_until,
        )
        for s in seats
    ]


@pytest.fixture
def two_games(anna, bert, carla):
    first = start_game([anna, bert, carla])
    second = start_game([carla, anna])
    now = timezone.now()
    Vacation.objects.create(
        user=bert, starts_at=now - timedelta(hours=1), ends_at=now + timedelta(days=2)
    )
    return first, second


def test_fetch_gives_what_the_queryset_gives_for_each_game_and_moment(two_games, bert):
    now = timezone.now()
    for game in two_games:
        for moment in (now, now + timedelta(days=3)):  # Bert's vacation runs, then not
            expected = list(_seats(moment).filter(game_id=game.id))
            assert _as_rows(SEATS.fetch(game_id=game.id, now=moment)) == _as_rows(expected)
    [bert_seat] = [s for s in SEATS.fetch(game_id=two_games[0].id, now=now) if s.user_id == bert.id]
    assert bert_seat.on_vacation_until is not None
    later = SEATS.fetch(game_id=two_games[0].id, now=now + timedelta(days=3))
    assert all(s.on_vacation_until is None for s in later)


def test_the_sql_is_compiled_once_per_connection(two_games, monkeypatch):
    query = PreparedQuery(
        lambda game_id: Game.objects.filter(id=game_id), game_id=Game._meta.get_field("id")
    )
    compiled = []
    original = SQLCompiler.as_sql

    def counting(self, *args, **kwargs):
        compiled.append(self.query.model)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(SQLCompiler, "as_sql", counting)
    for game in [*two_games, *two_games]:
        assert [g.id for g in query.fetch(game_id=game.id)] == [game.id]
    assert compiled == [Game]
    assert query.fetch(game_id="6f1b0c8e-0000-4000-8000-000000000000") == []


def test_a_query_made_after_another_is_gone_runs_its_own_sql(two_games, anna):
    """A query made where a collected one lived (CPython reuses the address, so ``id()``
    repeats) must not find the other's compiled SQL: it was kept under ``id(self)``."""
    game = two_games[0]
    for _ in range(10):
        by_game = PreparedQuery(
            lambda game_id: Game.objects.filter(id=game_id), game_id=Game._meta.get_field("id")
        )
        assert [g.id for g in by_game.fetch(game_id=game.id)] == [game.id]
        del by_game
        by_host = PreparedQuery(
            lambda user_id: Game.objects.filter(host_id=user_id),
            user_id=Game._meta.get_field("host"),
        )
        assert {g.host_id for g in by_host.fetch(user_id=anna.id)} == {anna.id}


def test_a_value_that_does_not_reach_the_sql_is_refused(anna):
    query = PreparedQuery(
        lambda user_id: Game.objects.filter(host_id=1), user_id=Seat._meta.get_field("user")
    )
    with pytest.raises(ValueError, match="does not reach the SQL"):
        query.fetch(user_id=anna.id)


def test_fetch_takes_exactly_the_named_values(two_games):
    with pytest.raises(TypeError):
        SEATS.fetch(game_id=two_games[0].id)


@pytest.mark.skipif(not connection.features.has_select_for_update, reason="SQLite has no row locks")
def test_a_row_lock_outside_a_transaction_is_refused_as_django_refuses_it(transactional_db):
    locking = PreparedQuery(
        lambda game_id: Game.objects.select_for_update().filter(id=game_id),
        game_id=Game._meta.get_field("id"),
    )
    game_id = "6f1b0c8e-0000-4000-8000-000000000000"
    assert not connection.in_atomic_block
    with transaction.atomic():
        assert locking.fetch(game_id=game_id) == []  # compiled here, inside a transaction
    with pytest.raises(TransactionManagementError):
        locking.fetch(game_id=game_id)


def test_game_with_seats_is_prefetch_related_in_one_query(two_games, django_assert_num_queries):
    game_id = two_games[0].id
    with django_assert_num_queries(1):
        game = queries.game_with_seats(game_id)
        seats = list(game.seats.all())
        assert all(seat.game is game for seat in seats)
        assert [s.user.public_name for s in seats]
    reference = Game.objects.prefetch_related(queries.SEATS_WITH_USERS).get(id=game_id)
    assert (game.id, game.version, game.state) == (reference.id, reference.version, reference.state)
    assert _as_rows(seats) == _as_rows(reference.seats.all())
    assert queries.game_with_seats("6f1b0c8e-0000-4000-8000-000000000000") is None


def test_the_game_get_finds_only_a_players_game_and_any_for_staff(two_games, anna, bert, moderator):
    _, second = two_games
    assert queries.get_visible_game(anna, second.id).id == second.id
    with pytest.raises(GameError):
        queries.get_visible_game(bert, second.id)  # not his game
    with pytest.raises(GameError):
        queries.get_visible_game(anna, "not-a-game-id")
    assert queries.get_visible_game(moderator, second.id).id == second.id


def test_two_values_of_one_kind_keep_their_places(bert):
    from accounts.preferences import vacations_between

    now = timezone.now()
    for start, end in ((1, 2), (5, 6)):
        Vacation.objects.create(
            user=bert, starts_at=now + timedelta(days=start), ends_at=now + timedelta(days=end)
        )
    assert len(vacations_between(bert.id, now, now + timedelta(days=3))) == 1
    assert len(vacations_between(bert.id, now + timedelta(days=3), now + timedelta(days=9))) == 1
    assert len(vacations_between(bert.id, now, now + timedelta(days=9))) == 2
    assert vacations_between(bert.id, now + timedelta(days=2), now + timedelta(days=5)) == []


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's prepared statements")
def test_postgresql_plans_a_hot_query_once_per_connection(two_games):
    """psycopg prepares a statement on its 5th run (piratz_site.env): from then on
    PostgreSQL runs the plan it made, instead of parsing and planning the query again."""
    game_id = two_games[0].id
    for _ in range(6):
        queries.game_with_seats(game_id)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [statement for (statement,) in cursor.fetchall()]
    assert any('FROM "games_seat"' in statement for statement in prepared), prepared
