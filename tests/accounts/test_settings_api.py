"""/api/me/settings/: reading and changing one's notification settings, refusals included."""

from datetime import UTC, datetime, time

import pytest
import time_machine
from django.urls import include, path

from accounts import preferences
from accounts.models import NotificationSettings
from accounts.preferences import settings_for
from core.errors import ServiceError
from tests.accounts.test_login_link_api import schema_of
from tests.factories import client_for

URL = "/api/me/settings/"
# Sunday 2026-01-11, 12:00 UTC = 13:00 in Berlin.
NOON = datetime(2026, 1, 11, 12, 0, tzinfo=UTC)

DEFAULTS = {
    "mode": "each_turn",
    "digest_hour": 8,
    "reminder_leads": [24, 2],
    "time_zone": "UTC",
    "quiet_hours": None,
    "unsubscribed": [],
    "talk_emails": False,
    # Where each kind of game news goes (issue 27, push messages): email unless chosen.
    "channels": dict.fromkeys(
        ("your_turn", "reminder", "auto_moved", "game_started", "game_over", "game_ended"), "email"
    ),
    "next_digest_at": None,
    "language": "",
    "display_name": "Anna",  # the player fixture's
}


@pytest.fixture
def client(player):
    return client_for(player)


def patch(client, body):
    return client.patch(URL, body, format="json")


def saved(player) -> dict:
    """The settings row as stored (a fresh read, not the API's answer)."""
    row = NotificationSettings.objects.get(user=player)
    return {
        "mode": row.mode,
        "digest_hour": row.digest_hour,
        "reminder_leads": row.reminder_leads,
        "time_zone": row.time_zone,
        "quiet": (row.quiet_start, row.quiet_end),
        "unsubscribed": row.unsubscribed,
        "talk_emails": row.talk_emails,
        "next_digest_at": row.next_digest_at,
    }


def test_defaults_are_shown_without_writing_a_row(client, player):
    response = client.get(URL)
    assert response.status_code == 200
    assert response.json() == DEFAULTS
    assert not NotificationSettings.objects.filter(user=player).exists()


def test_anonymous_callers_are_refused(db):
    anonymous = client_for(None)
    assert anonymous.get(URL).status_code == 401
    response = anonymous.patch(URL, {"mode": "off"}, format="json")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert not NotificationSettings.objects.exists()


def test_patch_changes_only_the_fields_given(client, player):
    response = patch(
        client, {"reminder_leads": [48], "quiet_hours": {"start": "23:00", "end": "07:00"}}
    )
    assert response.status_code == 200, response.content
    assert response.json() == {
        **DEFAULTS,
        "reminder_leads": [48],
        "quiet_hours": {"start": "23:00", "end": "07:00"},
    }
    assert saved(player)["quiet"] == (time(23), time(7))

    response = patch(client, {"time_zone": "Europe/Berlin"})
    assert response.json()["reminder_leads"] == [48]
    assert response.json()["quiet_hours"] == {"start": "23:00", "end": "07:00"}
    assert saved(player)["time_zone"] == "Europe/Berlin"


def test_quiet_hours_can_be_removed(client, player):
    patch(client, {"quiet_hours": {"start": "22:30", "end": "06:15"}})
    response = patch(client, {"quiet_hours": None})
    assert response.json()["quiet_hours"] is None
    assert saved(player)["quiet"] == (None, None)


def test_settings_for_reads_the_saved_row(client, player):
    patch(client, {"mode": "off"})
    player.refresh_from_db()
    assert settings_for(player).mode == "off"
    assert settings_for(player).wants("your_turn") is False


@time_machine.travel(NOON, tick=False)
def test_digest_mode_schedules_the_next_digest_at_the_local_hour(client, player):
    response = patch(client, {"mode": "digest", "time_zone": "Europe/Berlin", "digest_hour": 18})
    # 18:00 in Berlin (CET) today = 17:00 UTC.
    assert response.json()["next_digest_at"] == "2026-01-11T17:00:00Z"
    assert saved(player)["next_digest_at"] == datetime(2026, 1, 11, 17, tzinfo=UTC)


@time_machine.travel(NOON, tick=False)
def test_changing_the_digest_hour_or_zone_moves_the_next_digest(client, player):
    patch(client, {"mode": "digest", "digest_hour": 8})
    assert saved(player)["next_digest_at"] == datetime(2026, 1, 12, 8, tzinfo=UTC)
    patch(client, {"time_zone": "America/New_York"})  # 08:00 EST = 13:00 UTC, today
    assert saved(player)["next_digest_at"] == datetime(2026, 1, 11, 13, tzinfo=UTC)
    patch(client, {"digest_hour": 6})  # 06:00 EST = 11:00 UTC: passed, so tomorrow
    assert saved(player)["next_digest_at"] == datetime(2026, 1, 12, 11, tzinfo=UTC)


@time_machine.travel(NOON, tick=False)
def test_leaving_digest_mode_clears_the_next_digest(client, player):
    patch(client, {"mode": "digest"})
    assert saved(player)["next_digest_at"] is not None
    response = patch(client, {"mode": "each_turn"})
    assert response.json()["next_digest_at"] is None
    assert saved(player)["next_digest_at"] is None


def test_other_changes_leave_the_next_digest_alone(client, player):
    with time_machine.travel(NOON, tick=False):
        patch(client, {"mode": "digest"})
    with time_machine.travel(datetime(2026, 1, 12, 8, 1, tzinfo=UTC), tick=False):
        # The digest is due but the sweep has not run yet: an unrelated change must not
        # move it to tomorrow.
        patch(client, {"reminder_leads": [1]})
    assert saved(player)["next_digest_at"] == datetime(2026, 1, 12, 8, tzinfo=UTC)


def test_unsubscribed_kinds_can_be_set_and_cleared(client, player):
    response = patch(client, {"unsubscribed": ["reminder", "game_started", "reminder"]})
    assert response.json()["unsubscribed"] == ["game_started", "reminder"]
    assert patch(client, {"unsubscribed": []}).json()["unsubscribed"] == []


def test_table_talk_emails_are_chosen_and_the_choice_undoes_their_unsubscribe(client, player):
    """Issue 25: others' table talk by email is off until chosen; choosing it takes an
    earlier one-click unsubscribe from it back."""
    assert patch(client, {"unsubscribed": ["table_talk"]}).json()["talk_emails"] is False
    answer = patch(client, {"talk_emails": True}).json()
    assert answer["talk_emails"] is True and answer["unsubscribed"] == []
    assert settings_for(player).wants("table_talk")
    assert patch(client, {"talk_emails": False}).json()["talk_emails"] is False
    assert not NotificationSettings.objects.get(user=player).wants("table_talk")


REFUSALS = [
    ({"time_zone": "Mars/Olympus"}, "not a known time zone"),
    ({"time_zone": ""}, "time_zone"),
    ({"quiet_hours": {"start": "07:00", "end": "07:00"}}, "different times"),
    ({"quiet_hours": {"start": "25:00", "end": "07:00"}}, "quiet_hours"),
    ({"quiet_hours": {"start": "7", "end": "08:00"}}, "quiet_hours"),
    ({"quiet_hours": {"start": "07:00"}}, "quiet_hours"),
    ({"quiet_hours": "23:00-07:00"}, "quiet_hours"),
    ({"reminder_leads": [0]}, "reminder_leads"),
    ({"reminder_leads": [721]}, "reminder_leads"),
    ({"reminder_leads": [1, 2, 3, 4]}, "reminder_leads"),
    ({"reminder_leads": [24, 24]}, "only once"),
    ({"reminder_leads": ["24"]}, "whole numbers"),
    ({"reminder_leads": [2.5]}, "reminder_leads"),
    ({"reminder_leads": 24}, "reminder_leads"),
    ({"digest_hour": 24}, "digest_hour"),
    ({"digest_hour": -1}, "digest_hour"),
    # docs/api.md "Errors": a wrong type is malformed; DRF's IntegerField took "5", 5.0 and "5.0"
    ({"digest_hour": "5"}, "digest_hour"),
    ({"digest_hour": 5.0}, "digest_hour"),
    ({"digest_hour": True}, "digest_hour"),
    # an unknown field is malformed inside quiet_hours too (it was dropped silently)
    ({"quiet_hours": {"start": "22:00", "end": "07:00", "colour": "blue"}}, "Unknown field"),
    ({"mode": "weekly"}, "mode"),
    ({"unsubscribed": ["login_link"]}, "unsubscribed"),
    ({"unsubscribed": ["invitation"]}, "unsubscribed"),
    ({"colour": "blue"}, "Unknown field"),
    ({"talk_emails": "yes"}, "talk_emails"),
]


@pytest.mark.parametrize(("body", "says"), REFUSALS)
def test_bad_settings_are_refused_and_change_nothing(client, player, body, says):
    patch(client, {"mode": "digest", "reminder_leads": [12], "time_zone": "Europe/Berlin"})
    before = saved(player)
    # A valid change next to the bad one must not be applied either.
    response = patch(client, {"mode": "off", **body})
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"
    assert says in response.json()["detail"]
    # Refused by the API's validation, which names the field for forms.
    assert set(response.json()["fields"]) == set(body)
    assert saved(player) == before


def test_bad_settings_create_no_row(client, player):
    assert patch(client, {"time_zone": "Nowhere/Atlantis"}).status_code == 400
    assert not NotificationSettings.objects.filter(user=player).exists()


ACTION_REFUSALS = [
    ({"time_zone": "Mars/Olympus"}, "not a known time zone"),
    ({"quiet_hours": (time(7), time(7))}, "different times"),
    ({"reminder_leads": [0]}, "between 1 and 720"),
    ({"reminder_leads": [3, 3]}, "only once"),
    ({"unsubscribed": ["login_link"]}, "cannot be switched off"),
]


@pytest.mark.parametrize(("changes", "says"), ACTION_REFUSALS)
def test_the_action_itself_refuses_bad_settings(player, changes, says):
    # Callers other than the API (a settings page, the shell) get the same checks.
    preferences.do_update_settings(player, {"reminder_leads": [5]}, now=NOON)
    before = saved(player)
    with pytest.raises(ServiceError, match=says) as refusal:
        preferences.do_update_settings(player, {"mode": "off", **changes}, now=NOON)
    assert refusal.value.code == "invalid"
    assert saved(player) == before


def test_schema_documents_the_settings_endpoint():
    schema = schema_of(path("api/me/", include("accounts.me_urls")))
    operations = schema["paths"]["/api/me/settings/"]
    assert set(operations) == {"get", "patch"}
    assert {"200", "400", "401"} <= set(operations["patch"]["responses"])
    assert "401" in operations["get"]["responses"]
    request_schema = operations["patch"]["requestBody"]["content"]["application/json"]["schema"]
    name = request_schema["$ref"].rsplit("/", 1)[-1]
    properties = schema["components"]["schemas"][name]["properties"]
    assert {
        "mode",
        "digest_hour",
        "reminder_leads",
        "time_zone",
        "quiet_hours",
        "unsubscribed",
    } <= set(properties)
