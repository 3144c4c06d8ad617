"""A game's clock through the API: creating a time bank or daily deadline game, the
"clock" of every game's answer and each seat's "bank_seconds", and the refusals."""

import pytest

from accounts.models import NotificationSettings
from tests.factories import client_for

pytestmark = pytest.mark.django_db


def create(user, players, **extra):
    return client_for(user).post(
        "/api/games/",
        {"game": "piratz", "players": [p.email for p in players], **extra},
        format="json",
    )


def test_a_game_without_a_clock_has_hours_per_turn_and_no_banks(anna, bert):
    body = create(anna, [anna, bert]).json()
    assert body["clock"] == {
        "kind": "per_turn",
        "bank_hours": None,
        "increment_hours": None,
        "cap_hours": None,
        "hour": None,
        "zone": None,
    }
    assert [seat["bank_seconds"] for seat in body["seats"]] == [None, None]


def test_a_time_bank_game_shows_its_clock_and_every_seats_bank(anna, bert):
    clock = {"kind": "bank", "bank_hours": 240, "increment_hours": 36, "cap_hours": 480}
    response = create(anna, [anna, bert], clock=clock)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["clock"] == {**clock, "hour": None, "zone": None}
    assert [seat["bank_seconds"] for seat in body["seats"]] == [240 * 3600, 240 * 3600]


def test_a_daily_game_takes_the_hosts_time_zone(anna, bert):
    NotificationSettings.objects.create(user=anna, time_zone="Europe/Berlin")
    response = create(anna, [anna, bert], clock={"kind": "daily", "hour": 20})
    assert response.status_code == 201, response.json()
    assert response.json()["clock"] == {
        "kind": "daily",
        "bank_hours": None,
        "increment_hours": None,
        "cap_hours": None,
        "hour": 20,
        "zone": "Europe/Berlin",
    }


@pytest.mark.parametrize(
    ("clock", "words"),
    [
        ({"kind": "bank", "bank_hours": 300, "cap_hours": 200}, "at least its bank_hours"),
        ({"kind": "daily"}, "A daily clock needs its hour"),
        ({"kind": "daily", "hour": 20, "bank_hours": 5}, "takes no bank_hours"),
        ({"kind": "daily", "hour": 24}, "hour"),
        ({"kind": "sundial"}, "kind"),
        ({"kind": "bank", "bank_hours": "240"}, "bank_hours"),
        ({"kind": "bank", "colour": "red"}, "Unknown fields: colour."),
        ("bank", "clock"),
    ],
)
def test_bad_clocks_are_refused_with_a_sentence(anna, bert, clock, words):
    response = create(anna, [anna, bert], clock=clock)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert words in body["detail"]


def test_refusals_speak_german_to_a_german_reader(anna, bert):
    response = client_for(anna).post(
        "/api/games/",
        {
            "game": "piratz",
            "players": [anna.email, bert.email],
            "clock": {"kind": "bank", "bank_hours": 300, "cap_hours": 200},
        },
        format="json",
        headers={"accept-language": "de"},
    )
    assert response.status_code == 400
    assert "mindestens so groß" in response.json()["detail"]
