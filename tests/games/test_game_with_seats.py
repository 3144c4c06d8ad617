"""games.queries.game_with_seats: the game with its seats, users, settings and running
vacations in two queries, by the ORM's own prefetch, what every move and game GET read first."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import Vacation
from accounts.preferences import vacations_between
from core.errors import ServiceError
from games import queries
from games.models import Game, Seat
from tests.factories import start_game

pytestmark = pytest.mark.django_db

NO_GAME = "6f1b0c8e-0000-4000-8000-000000000000"


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


def test_game_with_seats_reads_the_game_and_its_seats_in_two_queries(
    two_games, django_assert_num_queries
):
    game_id = two_games[0].id
    with django_assert_num_queries(2):
        game = queries.game_with_seats(game_id)
        seats = list(game.seats.all())
        assert all(seat.game is game for seat in seats)
        assert [s.user.public_name for s in seats]
    reference = Game.objects.prefetch_related(queries.SEATS_WITH_USERS).get(id=game_id)
    assert (game.id, game.version, game.state) == (reference.id, reference.version, reference.state)
    assert _as_rows(seats) == _as_rows(reference.seats.all())
    assert queries.game_with_seats(NO_GAME) is None


def test_seats_in_order_reuses_the_seats_read_with_the_game_else_reads_them_once(
    two_games, django_assert_num_queries
):
    game_id = two_games[0].id
    game = queries.game_with_seats(game_id)
    with django_assert_num_queries(0):
        assert [s.seat for s in queries.seats_in_order(game)] == [0, 1, 2]
    bare = Game.objects.get(id=game_id)
    with django_assert_num_queries(1):
        seats = queries.seats_in_order(bare)
        assert [s.user.email for s in seats] == [s.user.email for s in game.seats.all()]
    with django_assert_num_queries(0):
        queries.seats_in_order(bare)


def test_every_seats_read_comes_in_seat_order_whatever_order_the_rows_are_stored_in(
    two_games, carla
):
    """The reads sort in Python, not by ORDER BY (SeatsSortedHere, decision 0009)."""
    game = two_games[0]
    # Seats 0 and 2 swap holders by renumbering, so the rows' stored order is no longer
    # the seats' (SQLite returns them by rowid, PostgreSQL by where the new versions went).
    first, last = Seat.objects.get(game=game, seat=0), Seat.objects.get(game=game, seat=2)
    Seat.objects.filter(id=first.id).update(seat=9)
    Seat.objects.filter(id=last.id).update(seat=0)
    Seat.objects.filter(id=first.id).update(seat=2)
    stored = [seat.seat for seat in Seat.objects.filter(game=game).order_by()]
    assert stored != [0, 1, 2], "the premise: unordered, the database gives another order"
    for seats in (queries.SEAT_ROWS, queries.SEATS_TO_SHOW, queries.SEATS_WITH_USERS):
        read = queries.game_with_seats(game.id, seats=seats)
        assert [seat.seat for seat in read.seats.all()] == [0, 1, 2], seats.queryset.query
    for listed in queries.games_of(carla, seats=queries.SEATS_WITH_PEOPLE):
        assert [seat.seat for seat in listed.seats.all()] == sorted(
            seat.seat for seat in listed.seats.all()
        )
    assert [seat.seat for seat in queries.seats_in_order(Game.objects.get(id=game.id))] == [0, 1, 2]


def test_a_running_vacation_is_read_when_the_query_runs(two_games, bert, time_machine):
    game_id = two_games[0].id
    [on_vacation] = [s for s in queries.game_with_seats(game_id).seats.all() if s.user == bert]
    assert on_vacation.on_vacation_until is not None
    time_machine.move_to(timezone.now() + timedelta(days=3))
    later = queries.game_with_seats(game_id).seats.all()
    assert all(s.on_vacation_until is None for s in later)


def test_the_game_get_finds_only_a_players_game_and_any_for_staff(two_games, anna, bert, moderator):
    _, second = two_games
    assert queries.get_visible_game(anna, second.id).id == second.id
    with pytest.raises(ServiceError):
        queries.get_visible_game(bert, second.id)  # not his game
    with pytest.raises(ServiceError):
        queries.get_visible_game(anna, "not-a-game-id")
    assert queries.get_visible_game(moderator, second.id).id == second.id


def test_vacations_between_finds_those_overlapping_the_window(bert):
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
    """psycopg prepares a statement on its 5th run (core.env): from then on
    PostgreSQL runs the plan it made, instead of parsing and planning the query again."""
    game_id = two_games[0].id
    for _ in range(6):
        queries.game_with_seats(game_id)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [statement for (statement,) in cursor.fetchall()]
    assert any('FROM "games_seat"' in statement for statement in prepared), prepared
