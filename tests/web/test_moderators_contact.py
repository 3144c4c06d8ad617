"""A suspended player is told where to write (MODERATORS_CONTACT), or plainly that no
address is published: never "write to the moderators" with no address anywhere."""

import re

import pytest
from django.test import Client

from accounts.login_links import request_login_link
from moderation import actions as moderation

pytestmark = pytest.mark.django_db

SITE = "http://127.0.0.1:8000"


@pytest.fixture(autouse=True)
def _site_url(settings):
    settings.SITE_URL = SITE


def suspended_login_link_page(anna, moderator, mailoutbox, capture) -> str:
    """Anna opens a login link of hers after a moderator suspended her."""
    with capture(execute=True):
        assert request_login_link(anna.email)
    [link] = re.findall(rf"{re.escape(SITE)}(/accounts/login/[^/\s\"<]+/)", mailoutbox[-1].body)
    moderation.do_suspend_user(moderator, anna, "Spam.")
    return Client().get(link).content.decode()


def test_the_suspended_page_names_the_moderators_address(
    anna, moderator, mailoutbox, django_capture_on_commit_callbacks, settings
):
    settings.MODERATORS_CONTACT = "mods@example.org"
    page = suspended_login_link_page(
        anna, moderator, mailoutbox, django_capture_on_commit_callbacks
    )
    assert "write to the moderators at mods@example.org." in page


def test_without_an_address_the_page_says_none_is_published(
    anna, moderator, mailoutbox, django_capture_on_commit_callbacks, settings
):
    settings.MODERATORS_CONTACT = ""
    page = suspended_login_link_page(
        anna, moderator, mailoutbox, django_capture_on_commit_callbacks
    )
    assert "it publishes no address for its moderators." in page
    assert "write to the moderators." not in page


def test_the_api_refusal_names_the_moderators_address(anna, moderator, settings):
    settings.MODERATORS_CONTACT = "mods@example.org"
    client = Client()
    client.force_login(anna)
    moderation.do_suspend_user(moderator, anna, "Spam.")
    refused = client.get("/api/games/")
    assert refused.status_code == 403
    assert "write to the moderators at mods@example.org." in refused.json()["detail"]


def test_the_suspended_page_in_german(
    anna, moderator, mailoutbox, django_capture_on_commit_callbacks, settings
):
    settings.MODERATORS_CONTACT = "mods@example.org"
    anna.language = "de"
    anna.save(update_fields=["language"])
    with django_capture_on_commit_callbacks(execute=True):
        assert request_login_link(anna.email)
    [link] = re.findall(rf"{re.escape(SITE)}(/accounts/login/[^/\s\"<]+/)", mailoutbox[-1].body)
    moderation.do_suspend_user(moderator, anna, "Spam.")
    page = Client(headers={"accept-language": "de"}).get(link).content.decode()
    assert "schreib den Moderatoren an mods@example.org." in page
