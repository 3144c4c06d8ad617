"""Each seat of a game in the API says until when that player is on vacation (or null)."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from accounts.models import Vacation
from games.api.serializers import SeatSerializer
from games.models import Seat
from tests.api.test_query_counts import DETAIL_QUERIES, LIST_QUERIES, counted
from tests.factories import client_for, start_game

pytestmark = pytest.mark.django_db

H = timedelta(hours=1)
START = datetime(2026, 12, 7, 10, 0, tzinfo=UTC)


@pytest.fixture
def anna_away(anna, bert, carla):
    """A game of three at START; Anna is away from START - 1 h to START + 48 h."""
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert, carla])
    Vacation.objects.create(user=anna, starts_at=START - H, ends_at=START + 48 * H)
    # A vacation of Bert's that is over, and one of Carla's still to come.
    Vacation.objects.create(user=bert, starts_at=START - 30 * H, ends_at=START - 2 * H)
    Vacation.objects.create(user=carla, starts_at=START + 2 * H, ends_at=START + 5 * H)
    return game


def seats_seen_by(user, game) -> list[dict]:
    return client_for(user).get(f"/api/games/{game.id}/").json()["seats"]


def test_other_players_see_who_is_on_vacation_until_when(anna_away, bert):
    with time_machine.travel(START + H, tick=False):
        seats = seats_seen_by(bert, anna_away)
    assert [seat["on_vacation_until"] for seat in seats] == ["2026-12-09T10:00:00Z", None, None]


def test_the_mark_follows_the_clock(anna_away, bert):
    with time_machine.travel(START + 3 * H, tick=False):
        seats = seats_seen_by(bert, anna_away)
    assert [seat["on_vacation_until"] for seat in seats] == [
        "2026-12-09T10:00:00Z",
        None,
        "2026-12-07T15:00:00Z",
    ]
    with time_machine.travel(START + 48 * H, tick=False):
        seats = seats_seen_by(bert, anna_away)
    assert [seat["on_vacation_until"] for seat in seats] == [None, None, None]


def test_the_list_and_a_moves_answer_show_it_too(anna_away, anna, bert):
    with time_machine.travel(START + H, tick=False):
        listed = client_for(bert).get("/api/games/").json()["results"][0]["seats"]
        moved = client_for(anna).post(
            f"/api/games/{anna_away.id}/moves/", {"version": 0, "action": "reveal"}, format="json"
        )
    assert listed[0]["on_vacation_until"] == "2026-12-09T10:00:00Z"
    assert moved.json()["seats"][0]["on_vacation_until"] == "2026-12-09T10:00:00Z"


def test_vacations_cost_no_query_per_seat(anna_away, anna, bert, carla, dirk):
    with time_machine.travel(START, tick=False):
        start_game([bert, anna, carla, dirk], seed=3)
    for user in (bert, carla, dirk):
        Vacation.objects.create(user=user, starts_at=START, ends_at=START + 10 * H)
    client = client_for(bert)
    with time_machine.travel(START + H, tick=False):
        client.get("/api/games/")  # the key's first use records itself: not counted
        detail, detail_sql = counted(lambda: client.get(f"/api/games/{anna_away.id}/"))
        listed, list_sql = counted(lambda: client.get("/api/games/"))
    assert detail.json()["seats"][1]["on_vacation_until"] == "2026-12-07T20:00:00Z"
    assert len(detail_sql) == DETAIL_QUERIES
    assert len(list_sql) == LIST_QUERIES
    assert listed.json()["count"] == 2


def test_a_seat_read_without_the_prefetch_still_answers(anna_away, anna):
    seat = Seat.objects.get(game=anna_away, user=anna)
    with time_machine.travel(START + H, tick=False):
        assert SeatSerializer(seat).data["on_vacation_until"] == "2026-12-09T10:00:00Z"
    with time_machine.travel(START + 49 * H, tick=False):
        assert SeatSerializer(seat).data["on_vacation_until"] is None
