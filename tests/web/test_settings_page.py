"""The settings page (/settings/): email and time settings and vacations as forms; a refused
change shows the preferences layer's own reason and changes nothing."""

from datetime import UTC, datetime, time

import pytest
from django.test import Client

from accounts import preferences
from accounts.models import NotificationSettings, Vacation

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


@pytest.fixture
def browser(anna, time_machine) -> Client:
    time_machine.move_to(NOW, tick=False)
    client = Client()
    client.force_login(anna)
    return client


def settings_post(**changes) -> dict:
    data = {
        "form": "settings",
        "mode": "each_turn",
        "digest_hour": "8",
        "reminder_leads": "24, 2",
        "time_zone": "UTC",
        "quiet_start": "",
        "quiet_end": "",
    }
    data.update(changes)
    return data


def saved(user) -> NotificationSettings:
    return NotificationSettings.objects.filter(user=user).first()


def test_the_page_shows_the_saved_settings(anna, browser):
    preferences.do_update_settings(
        anna,
        {
            "time_zone": "Europe/Berlin",
            "reminder_leads": [48, 6],
            "quiet_hours": (time(22), time(7)),
        },
        now=NOW,
    )
    body = browser.get("/settings/").content.decode()
    assert 'value="Europe/Berlin"' in body and 'value="48, 6"' in body
    assert 'value="22:00"' in body and 'value="07:00"' in body
    assert '<option value="Europe/Berlin">' in body  # the zones to pick from
    for field in ("digest_hour", "reminder_leads", "time_zone", "quiet_start", "ends_at"):
        assert f'<label for="id_{field}"' in body


def test_strangers_are_asked_to_sign_in():
    response = Client().get("/settings/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/settings/"


def test_saving_changes_the_settings(anna, browser):
    response = browser.post(
        "/settings/",
        settings_post(
            mode="digest",
            digest_hour="7",
            reminder_leads="12 3",
            time_zone="America/New_York",
            quiet_start="23:00",
            quiet_end="06:30",
            unsubscribed=["game_started", "auto_moved"],
        ),
    )
    assert response.status_code == 302 and response["Location"] == "/settings/"
    row = saved(anna)
    assert (row.mode, row.digest_hour, row.reminder_leads, row.time_zone) == (
        "digest",
        7,
        [12, 3],
        "America/New_York",
    )
    assert (row.quiet_start, row.quiet_end) == (time(23), time(6, 30))
    assert row.unsubscribed == ["auto_moved", "game_started"]
    assert row.next_digest_at is not None  # the action's own bookkeeping ran
    body = browser.get("/settings/").content.decode()
    assert "Your settings are saved." in body and 'role="status"' in body
    # Emptying the quiet hours and the lead times switches them off.
    browser.post("/settings/", settings_post(reminder_leads=""))
    row = saved(anna)
    assert (row.quiet_start, row.quiet_end, row.reminder_leads) == (None, None, [])


def test_table_talk_emails_are_a_checkbox_of_their_own(anna, browser):
    """Issue 25: off until ticked; ticked, the box shows it and the settings say it."""
    body = browser.get("/settings/").content.decode()
    assert '<input type="checkbox" name="talk_emails" id="id_talk_emails">' in body
    browser.post("/settings/", settings_post(talk_emails="on"))
    assert saved(anna).talk_emails is True
    body = browser.get("/settings/").content.decode()
    assert 'name="talk_emails" id="id_talk_emails" checked' in body
    browser.post("/settings/", settings_post())  # an unticked box is not sent
    assert saved(anna).talk_emails is False


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"time_zone": "Mars/Olympus"}, "&#x27;Mars/Olympus&#x27; is not a known time zone."),
        ({"reminder_leads": "soon"}, "Reminder lead times are whole numbers of hours."),
        ({"reminder_leads": "1000"}, "Reminder lead times are between 1 and 720 hours."),
        ({"reminder_leads": "1, 2, 3, 4"}, "Give at most 3 reminder lead times"),
        ({"reminder_leads": "2, 2"}, "Each reminder lead time may be given only once."),
        (
            {"quiet_start": "22:00", "quiet_end": "22:00"},
            "Quiet hours must start and end at different times.",
        ),
        ({"quiet_start": "22:00"}, "Give both the start and the end of your quiet hours"),
        ({"digest_hour": "25"}, "Select a valid choice."),
        ({"mode": "always"}, "Select a valid choice."),
    ],
)
def test_a_refused_change_says_why_and_changes_nothing(anna, browser, changes, message):
    preferences.do_update_settings(anna, {"time_zone": "Europe/Berlin"}, now=NOW)
    before = saved(anna).updated_at
    response = browser.post("/settings/", settings_post(**{"mode": "digest", **changes}))
    assert response.status_code == 400
    body = response.content.decode()
    assert message in body and 'role="alert"' in body
    row = saved(anna)
    assert (row.mode, row.time_zone, row.updated_at) == ("each_turn", "Europe/Berlin", before)
    # What was typed is kept in the form.
    if "reminder_leads" in changes:
        assert f'value="{changes["reminder_leads"]}"' in body


def test_a_vacation_is_given_in_the_players_own_time(anna, browser):
    preferences.do_update_settings(anna, {"time_zone": "Europe/Berlin"}, now=NOW)
    response = browser.post(
        "/settings/",
        {"form": "vacation", "starts_at": "2026-12-24T09:00", "ends_at": "2026-12-27T18:00"},
    )
    assert response.status_code == 302
    vacation = Vacation.objects.get(user=anna)
    # Berlin is UTC+1 in December.
    assert vacation.starts_at == datetime(2026, 12, 24, 8, 0, tzinfo=UTC)
    assert vacation.ends_at == datetime(2026, 12, 27, 17, 0, tzinfo=UTC)
    body = browser.get("/settings/").content.decode()
    assert "Your vacation is saved." in body and "Cancel it" in body


def test_a_vacation_without_a_start_begins_now_and_can_be_ended(anna, browser, time_machine):
    browser.post("/settings/", {"form": "vacation", "starts_at": "", "ends_at": "2026-11-25T12:00"})
    vacation = Vacation.objects.get(user=anna)
    assert vacation.starts_at == NOW
    later = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
    time_machine.move_to(later, tick=False)
    assert "End it now" in browser.get("/settings/").content.decode()
    response = browser.post("/settings/", {"form": "end_vacation", "vacation": str(vacation.id)})
    assert response.status_code == 302
    vacation.refresh_from_db()
    assert vacation.ends_at == later
    assert "Your vacation is ended or cancelled." in browser.get("/settings/").content.decode()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"starts_at": "2026-12-10T00:00", "ends_at": "2026-12-09T00:00"},
            "A vacation must end after it starts.",
        ),
        (
            {"starts_at": "2026-11-01T00:00", "ends_at": "2026-12-01T00:00"},
            "cannot start in the past",
        ),
        ({"starts_at": "2026-12-05T00:00", "ends_at": "2027-01-15T00:00"}, "allowance of 21 days"),
        ({"starts_at": "2026-12-02T00:00", "ends_at": "2026-12-04T00:00"}, "overlaps another"),
        ({"ends_at": "next week"}, "Enter a valid date/time."),
    ],
)
def test_a_refused_vacation_says_why_and_adds_nothing(anna, browser, fields, message):
    existing = preferences.do_add_vacation(
        anna, datetime(2026, 12, 1, tzinfo=UTC), datetime(2026, 12, 3, tzinfo=UTC), now=NOW
    )
    response = browser.post("/settings/", {"form": "vacation", "starts_at": "", **fields})
    assert response.status_code == 400
    body = response.content.decode()
    assert message in body and 'role="alert"' in body
    assert list(Vacation.objects.filter(user=anna)) == [existing]


def test_another_players_vacation_cannot_be_ended(anna, bert, browser):
    theirs = preferences.do_add_vacation(bert, None, datetime(2026, 11, 30, tzinfo=UTC), now=NOW)
    response = browser.post(
        "/settings/", {"form": "end_vacation", "vacation": str(theirs.id)}, follow=True
    )
    assert "You have no vacation with this id." in response.content.decode()
    theirs.refresh_from_db()
    assert theirs.ends_at == datetime(2026, 11, 30, tzinfo=UTC)


def test_the_language_is_chosen_on_the_same_form(anna, browser):
    body = browser.get("/settings/").content.decode()
    assert '<option value="de">Deutsch</option>' in body
    browser.post("/settings/", settings_post(language="de"))
    anna.refresh_from_db()
    assert anna.language == "de"
    assert (
        '<option value="de" selected>Deutsch</option>' in browser.get("/settings/").content.decode()
    )
    browser.post("/settings/", settings_post(language=""))  # back to the browser's language
    anna.refresh_from_db()
    assert anna.language == ""
