"""The calendar page (/settings/calendar/): the address shown once when made, replaced by a
new one, revoked; the settings page links to it."""

import re

import pytest
from django.test import Client

from calendars.models import CalendarFeed

pytestmark = pytest.mark.django_db

PAGE = "/settings/calendar/"
URL_RE = re.compile(r'value="(http://127\.0\.0\.1:8000/calendar/(cal_[A-Za-z0-9_-]{43})\.ics)"')


@pytest.fixture
def browser(anna) -> Client:
    client = Client()
    client.force_login(anna)
    return client


def test_the_settings_page_links_to_the_calendar_page(browser):
    body = browser.get("/settings/").content.decode()
    assert f'href="{PAGE}"' in body


def test_making_an_address_shows_it_once(browser, anna):
    assert "You have no calendar address." in browser.get(PAGE).content.decode()

    made = browser.post(PAGE, {"form": "create"})

    assert made.status_code == 200
    assert "no-store" in made["Cache-Control"]
    url, token = URL_RE.search(made.content.decode()).groups()
    feed = CalendarFeed.objects.get(user=anna)
    assert feed.token_hash == CalendarFeed.hash_token(token)
    assert Client().get(url.removeprefix("http://127.0.0.1:8000")).status_code == 200
    again = browser.get(PAGE).content.decode()
    assert token not in again
    assert f"<code>{feed.prefix}…</code>" in again


def test_a_new_address_replaces_the_old_and_revoking_ends_it(browser):
    first = URL_RE.search(browser.post(PAGE, {"form": "create"}).content.decode()).group(2)
    second = URL_RE.search(browser.post(PAGE, {"form": "create"}).content.decode()).group(2)
    assert Client().get(f"/calendar/{first}.ics").status_code == 404

    revoked = browser.post(PAGE, {"form": "revoke"}, follow=True)

    assert "Your calendar address is revoked: it no longer works." in revoked.content.decode()
    assert Client().get(f"/calendar/{second}.ics").status_code == 404
    assert not CalendarFeed.objects.exists()


def test_revoking_without_an_address_and_unknown_forms_say_so(browser):
    body = browser.post(PAGE, {"form": "revoke"}, follow=True).content.decode()
    assert "You have no calendar address to revoke." in body
    body = browser.post(PAGE, {"form": "other"}, follow=True).content.decode()
    assert "the form sent was not recognised" in body


def test_the_page_is_in_german(browser, anna):
    anna.language = "de"
    anna.save()
    body = browser.get(PAGE).content.decode()
    assert "Du hast keine Kalenderadresse." in body


def test_the_page_needs_a_sign_in():
    response = Client().get(PAGE)
    assert response.status_code == 302
    assert "/accounts/login" in response["Location"]
