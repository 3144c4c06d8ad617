"""Signing in lands on the page it was meant for, and the sign-in lasts SESSION_DAYS."""

import re
import subprocess
import sys

import pytest
from django.conf import settings
from django.test import Client

from tests.factories import start_game

pytestmark = pytest.mark.django_db

LINK_RE = re.compile(re.escape(settings.SITE_URL.rstrip("/")) + r"(/accounts/login/[^/\s\"<]+/)")


def sign_in_through_the_pages(client: Client, wanted: str, email: str, mailoutbox, capture) -> str:
    """Open ``wanted`` signed out, ask for a login link on the page it sends us to, open
    the emailed link, press its button; return where that lands."""
    response = client.get(wanted)
    assert response.status_code == 302
    login_page = response["Location"]
    assert login_page.startswith("/accounts/login/?next=")
    form = client.get(login_page).content.decode()
    next_value = re.search(r'name="next" value="([^"]*)" id="id_next"', form).group(1)
    with capture(execute=True):
        sent = client.post(
            "/accounts/login/", {"email": email, "next": next_value.replace("&amp;", "&")}
        )
    assert sent.status_code == 200
    link = LINK_RE.search(mailoutbox[-1].body).group(1)
    assert client.get(link).status_code == 200  # the confirmation page
    return client.post(link)["Location"]


@pytest.mark.parametrize("page", ["/games/", "/settings/", "replay"])
def test_a_login_link_lands_on_the_page_that_asked_for_it(
    page, anna, bert, mailoutbox, django_capture_on_commit_callbacks
):
    if page == "replay":
        game = start_game([anna, bert], seed=3)
        page = f"/games/{game.id}/replay/?step=0"
    client = Client()
    landed = sign_in_through_the_pages(
        client, page, anna.email, mailoutbox, django_capture_on_commit_callbacks
    )
    assert landed == page
    assert client.get(landed).status_code == 200


def test_sessions_last_thirty_days_unless_configured():
    assert settings.SESSION_COOKIE_AGE == 30 * 24 * 60 * 60
    code = "from django.conf import settings; print(settings.SESSION_COOKIE_AGE)"
    env = {
        "DJANGO_SETTINGS_MODULE": "piratz_site.settings",
        "SECRET_KEY": "a-long-random-production-key-" + "k" * 30,
        "SESSION_DAYS": "90",
        "PATH": "",
    }
    done = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        capture_output=True,
        text=True,
        env=env,
        cwd=settings.BASE_DIR,
        check=True,
    )
    assert done.stdout.strip() == str(90 * 24 * 60 * 60)


def test_the_session_cookie_of_a_login_link_lasts_that_long(
    anna, mailoutbox, django_capture_on_commit_callbacks
):
    client = Client()
    sign_in_through_the_pages(
        client, "/games/", anna.email, mailoutbox, django_capture_on_commit_callbacks
    )
    assert client.cookies[settings.SESSION_COOKIE_NAME]["max-age"] == settings.SESSION_COOKIE_AGE


def test_a_login_link_without_a_page_lands_on_my_games_and_says_so(
    anna, mailoutbox, django_capture_on_commit_callbacks
):
    client = Client()
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/accounts/login/", {"email": anna.email, "next": ""})
    link = LINK_RE.search(mailoutbox[-1].body).group(1)
    landed = client.post(link, follow=True)
    assert landed.redirect_chain == [("/games/", 302)]
    assert f"You are signed in as {anna.public_name}." in landed.content.decode()
