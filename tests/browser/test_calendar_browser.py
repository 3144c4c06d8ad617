"""The calendar address in a real browser: made from the settings (shown once), read by a
calendar app, revoked; in English and German. Every page is checked as conftest.Visitor
says (console, CSP, axe)."""

import pytest
from icalendar import Calendar

from calendars.models import CalendarFeed
from tests.browser import flows
from tests.factories import make_user, start_game

pytestmark = pytest.mark.browser


def test_make_read_and_revoke_a_calendar_address(site, visitors, browser):
    anna_user = make_user("anna@example.com", display_name="Anna")
    game = start_game([anna_user, make_user("bert@example.com", display_name="Bert")])
    anna = visitors("Anna")
    flows.sign_in(anna, "anna@example.com", start="/settings/")

    anna.click(anna.page.get_by_role("link", name="Manage your calendar address"))
    anna.click("Make a calendar address")
    url = anna.page.locator("[data-calendar-url]").input_value()
    assert url.startswith(site.url + "/calendar/cal_") and url.endswith(".ics")
    feed = CalendarFeed.objects.get(user=anna_user)
    assert CalendarFeed.hash_token(url.split("/")[-1].removesuffix(".ics")) == feed.token_hash

    # A calendar app reads it: no session, just the address.
    calendar_app = browser.new_context()
    answer = calendar_app.request.get(url)
    assert answer.status == 200
    (event,) = Calendar.from_ical(answer.body()).walk("VEVENT")
    assert str(event["SUMMARY"]) == "Your turn in Piratz with Bert ends"
    assert event.decoded("DTSTART") == game.deadline.replace(microsecond=0)  # whole seconds

    anna.open("/settings/calendar/")
    assert not anna.page.locator("[data-calendar-url]").count()  # shown once only
    assert anna.page.locator("[data-calendar-feed]").count()
    flows.switch_language(anna, "de")
    assert anna.page.get_by_text("Du hast eine Kalenderadresse").count()
    anna.click("Kalenderadresse widerrufen")
    assert anna.page.get_by_text("Deine Kalenderadresse ist widerrufen").count()
    assert calendar_app.request.get(url).status == 404
    calendar_app.close()
