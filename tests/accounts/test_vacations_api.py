"""/api/me/vacations/: declaring, listing and ending absences, within the yearly allowance."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import include, path

from accounts.models import Vacation
from accounts.preferences import vacations_between
from tests.accounts.test_login_link_api import schema_of
from tests.factories import client_for, make_user, start_game

URL = "/api/me/vacations/"
NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def days(n: float) -> timedelta:
    return timedelta(days=n)


@pytest.fixture(autouse=True)
def _frozen_clock():
    with time_machine.travel(NOW, tick=False):
        yield


@pytest.fixture
def client(player):
    return client_for(player)


def declare(client, starts_at: datetime | None, ends_at: datetime, **extra):
    body = {"ends_at": iso(ends_at), **extra}
    if starts_at is not None:
        body["starts_at"] = iso(starts_at)
    return client.post(URL, body, format="json")


def stored(player) -> list[tuple[datetime, datetime]]:
    return list(Vacation.objects.filter(user=player).values_list("starts_at", "ends_at"))


def test_declare_a_planned_vacation(client, player):
    response = declare(client, NOW + days(3), NOW + days(10))
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["starts_at"] == iso(NOW + days(3))
    assert body["ends_at"] == iso(NOW + days(10))
    assert body["running"] is False
    assert stored(player) == [(NOW + days(3), NOW + days(10))]


def test_a_vacation_without_start_starts_now(client, player):
    response = declare(client, None, NOW + days(2))
    assert response.json()["running"] is True
    assert stored(player) == [(NOW, NOW + days(2))]


def test_a_start_a_moment_ago_is_read_as_now(client, player):
    # The client's clock may lag the server's by a little.
    assert declare(client, NOW - timedelta(minutes=2), NOW + days(1)).status_code == 201
    assert stored(player) == [(NOW, NOW + days(1))]


def test_list_shows_the_allowance_and_the_vacations_of_the_last_year(client, player):
    Vacation.objects.create(user=player, starts_at=NOW - days(400), ends_at=NOW - days(390))
    Vacation.objects.create(user=player, starts_at=NOW - days(30), ends_at=NOW - days(25))
    declare(client, NOW + days(3), NOW + days(5))
    other = make_user("bert@example.com")
    Vacation.objects.create(user=other, starts_at=NOW + days(1), ends_at=NOW + days(2))

    response = client.get(URL)
    assert response.status_code == 200
    body = response.json()
    assert body["allowance_days"] == 21
    assert [(v["starts_at"], v["ends_at"]) for v in body["vacations"]] == [
        (iso(NOW - days(30)), iso(NOW - days(25))),
        (iso(NOW + days(3)), iso(NOW + days(5))),
    ]


def test_vacations_between_merges_and_sorts(player):
    Vacation.objects.create(user=player, starts_at=NOW + days(5), ends_at=NOW + days(6))
    Vacation.objects.create(user=player, starts_at=NOW + days(1), ends_at=NOW + days(2))
    Vacation.objects.create(user=player, starts_at=NOW + days(2), ends_at=NOW + days(3))
    Vacation.objects.create(user=player, starts_at=NOW + days(20), ends_at=NOW + days(21))
    assert vacations_between(player.id, NOW, NOW + days(10)) == [
        (NOW + days(1), NOW + days(3)),
        (NOW + days(5), NOW + days(6)),
    ]
    assert vacations_between(player.id, NOW + days(2.5), NOW + days(5)) == [
        (NOW + days(2), NOW + days(3))
    ]


REFUSALS = [
    ((NOW + days(5), NOW + days(4)), "end after it starts"),
    ((NOW + days(5), NOW + days(5)), "end after it starts"),
    ((NOW - days(5), NOW - days(4)), "cannot start in the past"),
    ((NOW - days(1), NOW + days(4)), "cannot start in the past"),
    ((NOW + days(1), NOW + days(23)), "allowance of 21 days"),
    ((NOW + days(400), NOW + days(401)), "a year ahead"),
    ((None, NOW - timedelta(seconds=1)), "over already"),
]


@pytest.mark.parametrize(("interval", "says"), REFUSALS)
def test_bad_vacations_are_refused_and_change_nothing(client, player, interval, says):
    Vacation.objects.create(user=player, starts_at=NOW + days(100), ends_at=NOW + days(101))
    before = stored(player)
    response = declare(client, *interval)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"
    assert says in response.json()["detail"]
    assert stored(player) == before


def test_an_overlapping_vacation_is_refused(client, player):
    declare(client, NOW + days(5), NOW + days(10))
    response = declare(client, NOW + days(9), NOW + days(12))
    # Fine alone: the other vacation refuses it, a state (409), not a bad request.
    assert (response.status_code, response.json()["code"]) == (409, "conflict")
    assert "overlaps" in response.json()["detail"]
    assert stored(player) == [(NOW + days(5), NOW + days(10))]


def test_the_allowance_counts_the_last_365_days(client, player):
    Vacation.objects.create(user=player, starts_at=NOW - days(200), ends_at=NOW - days(185))
    over = declare(client, NOW + days(1), NOW + days(8))
    assert (over.status_code, over.json()["code"]) == (409, "conflict")
    assert "allowance" in over.json()["detail"]
    assert declare(client, NOW + days(1), NOW + days(7)).status_code == 201
    # Once the old one is more than 365 days back, its days are free again.
    assert declare(client, NOW + days(181), NOW + days(195)).status_code == 201


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"ends_at": "tomorrow"},
        {"ends_at": iso(NOW + days(2)), "reason": "beach"},
    ],
)
def test_malformed_bodies_are_refused(client, player, body):
    response = client.post(URL, body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert stored(player) == []


def test_the_allowance_is_a_setting(client, settings):
    settings.VACATION_DAYS_PER_YEAR = 3
    assert "allowance of 3 days" in declare(client, NOW, NOW + days(4)).json()["detail"]
    assert client.get(URL).json()["allowance_days"] == 3


def test_end_a_running_vacation_keeps_the_time_taken(client, player):
    vacation_id = declare(client, None, NOW + days(10)).json()["id"]
    later = NOW + days(2)
    with time_machine.travel(later, tick=False):
        response = client.delete(f"{URL}{vacation_id}/")
    assert response.status_code == 204
    assert stored(player) == [(NOW, later)]


def test_cancel_a_planned_vacation_removes_it(client, player):
    vacation_id = declare(client, NOW + days(3), NOW + days(10)).json()["id"]
    assert client.delete(f"{URL}{vacation_id}/").status_code == 204
    assert stored(player) == []


def test_a_finished_vacation_cannot_be_ended(client, player):
    old = Vacation.objects.create(user=player, starts_at=NOW - days(5), ends_at=NOW - days(4))
    response = client.delete(f"{URL}{old.id}/")
    assert (response.status_code, response.json()["code"]) == (409, "conflict")
    assert stored(player) == [(NOW - days(5), NOW - days(4))]


def test_someone_elses_vacation_is_not_found(client, player):
    other = make_user("bert@example.com")
    theirs = Vacation.objects.create(user=other, starts_at=NOW + days(1), ends_at=NOW + days(2))
    response = client.delete(f"{URL}{theirs.id}/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert Vacation.objects.filter(id=theirs.id).exists()


def test_anonymous_callers_are_refused(db):
    anonymous = client_for(None)
    assert anonymous.get(URL).status_code == 401
    assert anonymous.post(URL, {"ends_at": iso(NOW + days(1))}, format="json").status_code == 401
    assert anonymous.delete(f"{URL}1/").status_code == 401
    assert not Vacation.objects.exists()


# --- Deadlines follow vacations (games.deadlines.refresh_deadlines_for) -------------------


@pytest.fixture
def waiting_game(anna, bert, carla):
    """A game in which Anna (seat 0) is to move, started now."""
    return start_game([anna, bert, carla])


def test_a_vacation_pauses_the_deadline_of_a_game_waiting_on_that_player(anna, waiting_game):
    before = waiting_game.deadline
    assert declare(client_for(anna), None, NOW + days(3)).status_code == 201
    waiting_game.refresh_from_db()
    assert waiting_game.deadline == before + days(3)


def test_ending_a_vacation_early_gives_the_time_back(anna, waiting_game):
    client = client_for(anna)
    before = waiting_game.deadline
    vacation_id = declare(client, None, NOW + days(3)).json()["id"]
    with time_machine.travel(NOW + days(1), tick=False):
        client.delete(f"{URL}{vacation_id}/")
    waiting_game.refresh_from_db()
    assert waiting_game.deadline == before + days(1)


def test_a_refused_vacation_leaves_the_deadline_alone(anna, waiting_game):
    before = waiting_game.deadline
    assert declare(client_for(anna), None, NOW + days(30)).status_code == 400
    waiting_game.refresh_from_db()
    assert waiting_game.deadline == before


def test_schema_documents_the_vacation_endpoints():
    schema = schema_of(path("api/me/", include("accounts.me_urls")))
    collection = schema["paths"]["/api/me/vacations/"]
    assert set(collection) == {"get", "post"}
    assert {"201", "400", "401", "409"} <= set(collection["post"]["responses"])
    item = schema["paths"]["/api/me/vacations/{vacation_id}/"]
    assert set(item) == {"delete"}
    assert {"204", "401", "404", "409"} <= set(item["delete"]["responses"])
