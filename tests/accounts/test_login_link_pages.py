"""The login link in a browser: confirmation page, logging in, single use, expiry, CSRF."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import LoginLink, User

pytestmark = pytest.mark.django_db


def logged_in_email(client: Client) -> str | None:
    user_id = client.session.get("_auth_user_id")
    return None if user_id is None else User.objects.get(pk=user_id).email


def test_get_shows_a_confirmation_and_changes_nothing(client, ask_for_link):
    path = ask_for_link("stranger@example.com")

    response = client.get(path)

    assert response.status_code == 200
    assert b"Log in as s***@example.com?" in response.content
    assert b'method="post"' in response.content
    assert logged_in_email(client) is None
    assert not User.objects.filter(email="stranger@example.com").exists()
    assert LoginLink.objects.get().used_at is None
    assert "no-cache" in response["Cache-Control"]
    # Still usable after the GET (a mail scanner fetching it must not burn it).
    assert client.post(path).status_code == 302


def test_post_logs_in_a_new_player_and_goes_to_next(client, ask_for_link):
    path = ask_for_link("newbie@example.com", "/games/7/")

    response = client.post(path)

    assert response.status_code == 302
    assert response["Location"] == "/games/7/"
    assert logged_in_email(client) == "newbie@example.com"
    user = User.objects.get(email="newbie@example.com")
    assert not user.has_usable_password()
    assert user.last_login is not None
    assert LoginLink.objects.get().used_at is not None


def test_post_logs_in_an_existing_player_and_goes_to_my_games_without_next(
    client, player, ask_for_link
):
    path = ask_for_link(player.email)

    response = client.post(path)

    assert response["Location"] == reverse("games:my-games")
    assert logged_in_email(client) == player.email
    assert User.objects.count() == 1


def test_a_link_works_only_once(client, ask_for_link):
    path = ask_for_link("anna@example.com")
    assert client.post(path).status_code == 302
    other_browser = Client()

    again = other_browser.post(path)
    looked_at = other_browser.get(path)

    assert again.status_code == 410
    assert b"already been used" in again.content
    assert b"Email me a login link" in again.content  # offers a new link
    assert looked_at.status_code == 410
    assert logged_in_email(other_browser) is None


def test_a_link_expires(client, ask_for_link, time_machine):
    time_machine.move_to(timezone.now(), tick=False)
    path = ask_for_link("anna@example.com", "/games/7/")
    time_machine.shift(timedelta(minutes=settings.LOGIN_LINK_MINUTES, seconds=1))

    looked_at = client.get(path)
    response = client.post(path)

    assert looked_at.status_code == response.status_code == 410
    assert b"expired" in response.content
    assert b'value="/games/7/"' in response.content  # the new-link form keeps the destination
    assert logged_in_email(client) is None
    assert LoginLink.objects.get().used_at is None
    assert not User.objects.filter(email="anna@example.com").exists()


def test_a_link_works_until_just_before_expiry(client, ask_for_link, time_machine):
    time_machine.move_to(timezone.now(), tick=False)
    path = ask_for_link("anna@example.com")
    time_machine.shift(timedelta(minutes=settings.LOGIN_LINK_MINUTES, seconds=-1))

    assert client.post(path).status_code == 302


@pytest.mark.parametrize("how", ["flip", "truncate", "forge_email", "other_salt"])
def test_tampered_links_are_refused(client, ask_for_link, how):
    path = ask_for_link("anna@example.com")
    token = path.removeprefix("/accounts/login/").removesuffix("/")
    payload = signing.loads(token, salt="accounts.login-link")
    bad = {
        "flip": token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB"),
        "truncate": token[:-6],
        # A well-signed token for a nonce that was never issued to this address.
        "forge_email": signing.dumps(
            {**payload, "e": "mallory@example.com"}, salt="accounts.login-link"
        ),
        "other_salt": signing.dumps(payload, salt="something-else"),
    }[how]

    looked_at = client.get(f"/accounts/login/{bad}/")
    response = client.post(f"/accounts/login/{bad}/")

    assert looked_at.status_code == response.status_code == 400
    assert b"not valid" in response.content
    assert logged_in_email(client) is None
    assert LoginLink.objects.get().used_at is None
    assert User.objects.count() == 0


def test_disabled_account_cannot_use_a_link(client, player, ask_for_link):
    path = ask_for_link(player.email)
    player.is_active = False
    player.save()

    response = client.post(path)

    assert response.status_code == 403
    assert b"disabled" in response.content
    assert logged_in_email(client) is None
    assert LoginLink.objects.get().used_at is None


def test_csrf_is_enforced_on_the_confirmation(ask_for_link):
    path = ask_for_link("anna@example.com")
    browser = Client(enforce_csrf_checks=True)

    forged = browser.post(path)

    assert forged.status_code == 403
    assert LoginLink.objects.get().used_at is None
    assert logged_in_email(browser) is None

    # The confirmation page itself carries a working token.
    browser.get(path)
    response = browser.post(path, {"csrfmiddlewaretoken": browser.cookies["csrftoken"].value})
    assert response.status_code == 302
    assert logged_in_email(browser) == "anna@example.com"


def test_login_page_shows_the_form_and_keeps_a_safe_next(client):
    response = client.get("/accounts/login/?next=/games/7/")
    unsafe = client.get("/accounts/login/?next=//evil.example/")

    assert response.status_code == 200
    assert b'name="email"' in response.content
    assert b'value="/games/7/"' in response.content
    assert b"evil.example" not in unsafe.content


def test_login_page_post_sends_a_link_like_the_api(
    client, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/accounts/login/", {"email": "Anna@Example.com", "next": "/games/7/"}
        )

    assert response.status_code == 200
    assert b"Check your mail" in response.content
    assert [m.to for m in mailoutbox] == [["anna@example.com"]]
    from .conftest import link_path

    assert client.post(link_path(mailoutbox[0].body))["Location"] == "/games/7/"


def test_login_page_post_with_a_bad_address_shows_the_form_again(client, mailoutbox):
    response = client.post("/accounts/login/", {"email": "nope"})

    assert response.status_code == 400
    assert b"valid email" in response.content
    assert mailoutbox == []


def test_login_page_post_needs_csrf():
    response = Client(enforce_csrf_checks=True).post(
        "/accounts/login/", {"email": "anna@example.com"}
    )

    assert response.status_code == 403


def test_logout_is_post_only_and_goes_home(client, player):
    client.force_login(player)

    assert client.get("/accounts/logout/").status_code == 405
    assert logged_in_email(client) == player.email

    response = client.post("/accounts/logout/")

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert logged_in_email(client) is None


def test_login_url_setting_resolves_to_the_login_page():
    from django.shortcuts import resolve_url

    assert resolve_url(settings.LOGIN_URL) == "/accounts/login/"
