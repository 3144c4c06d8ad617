"""A game email's link is not the account: it expires, it opens its game only, and "sign out
everywhere" ends it together with every session and unused login link."""

import json
import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth.base_user import AbstractBaseUser
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.game_scope import SESSION_KEY
from accounts.login_links import request_login_link
from accounts.models import LoginLink
from tests.factories import start_toy_game, toy_move
from tests.web.game_links import SITE, entry_path, site_url  # noqa: F401  (site_url: autouse)

pytestmark = pytest.mark.django_db


def table_url(game) -> str:
    return reverse("games:game", args=[game.id])


def enter(client: Client, game, user):
    """Open ``user``'s game link to ``game`` and press its button."""
    return client.post(entry_path(game, user))


def login_link_path(email: str, mailoutbox, capture) -> str:
    with capture(execute=True):
        assert request_login_link(email)
    [link] = re.findall(rf"{re.escape(SITE)}(/accounts/login/[^/\s\"<]+/)", mailoutbox[-1].body)
    return link


def is_signed_out_on(client: Client, path: str) -> bool:
    response = client.get(path)
    return response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.fixture
def other_game(toy_games, anna, bert):
    """A second game of Bert's."""
    return start_toy_game([anna, bert])


# --- (b) Scoped: the game, not the account --------------------------------------------------


def test_a_game_link_session_plays_its_game(toy_game, anna):
    client = Client()
    assert enter(client, toy_game, anna).status_code == 302
    assert client.get(table_url(toy_game)).status_code == 200
    assert client.get(reverse("games:version", args=[toy_game.id])).status_code == 200
    move = {"version": "0", "move": json.dumps(toy_move(toy_game))}
    played = client.post(reverse("games:move", args=[toy_game.id]), move)
    assert played.status_code == 302
    toy_game.refresh_from_db()
    assert toy_game.version == 1


def test_a_game_link_session_is_signed_out_of_the_settings_and_other_games(
    toy_game, other_game, bert
):
    client = Client()
    enter(client, toy_game, bert)
    assert is_signed_out_on(client, "/settings/")
    assert is_signed_out_on(client, table_url(other_game))
    assert is_signed_out_on(client, reverse("games:my-games"))
    # Nothing posted to the settings page changes anything either.
    client.post("/settings/", {"form": "sign_out_everywhere"})
    bert.refresh_from_db()
    assert bert.session_generation == 0


def test_a_game_link_session_is_not_the_account_in_the_api(toy_game, bert):
    client = Client()
    enter(client, toy_game, bert)
    assert client.get("/api/me/settings/").status_code == 401
    assert client.get(f"/api/games/{toy_game.id}/").status_code == 401


def test_the_login_page_says_why_it_asks_again(toy_game, bert):
    client = Client()
    enter(client, toy_game, bert)
    page = client.get(reverse("accounts:login")).content.decode()
    assert "opens that game only" in page


def test_one_click_emails_the_sessions_own_address_a_sign_in_link_for_the_page(
    toy_game, bert, mailoutbox, django_capture_on_commit_callbacks
):
    client = Client()
    enter(client, toy_game, bert)
    asked = client.get("/settings/", follow=True)
    page = asked.content.decode()
    assert "a sign-in for the whole site" in page and "Email me a sign-in link" in page
    assert bert.email not in page  # whoever holds a forwarded game link
    button = page[page.index("data-game-session") : page.index("Email me a sign-in link")]
    assert 'name="next" value="/settings/"' in button  # no address typed: the page is kept
    with django_capture_on_commit_callbacks(execute=True):
        sent = client.post(reverse("accounts:game-session-login"), {"next": "/settings/"})
    assert sent.status_code == 200
    shown = sent.content.decode()
    assert "b***@example.com" in shown and bert.email not in shown
    assert LoginLink.objects.filter(email=bert.email).count() == 1
    [mail] = mailoutbox
    assert mail.to == [bert.email]
    # The link, opened in this browser, makes the session full and opens the page.
    path = re.findall(rf"{re.escape(SITE)}(/accounts/login/[^/\s\"<]+/)", mail.body)[0]
    assert client.post(path).url == "/settings/"
    assert client.get("/settings/").status_code == 200


def test_without_a_game_link_session_the_button_sends_nothing(bert):
    client = Client()
    answer = client.post(reverse("accounts:game-session-login"), {"next": "/settings/"})
    assert answer.status_code == 302 and answer.url == reverse("accounts:login")
    client.force_login(bert)  # a full session types its address on the form as ever
    assert client.post(reverse("accounts:game-session-login")).status_code == 302
    assert not LoginLink.objects.exists()


def test_a_second_game_link_adds_its_game(toy_game, other_game, bert):
    client = Client()
    enter(client, toy_game, bert)
    enter(client, other_game, bert)
    assert client.get(table_url(toy_game)).status_code == 200
    assert client.get(table_url(other_game)).status_code == 200
    assert is_signed_out_on(client, "/settings/")


def test_a_login_link_makes_a_game_link_session_full(
    toy_game, bert, mailoutbox, django_capture_on_commit_callbacks
):
    client = Client()
    enter(client, toy_game, bert)
    link = login_link_path(bert.email, mailoutbox, django_capture_on_commit_callbacks)
    assert client.post(link).status_code == 302
    assert SESSION_KEY not in client.session
    assert client.get("/settings/").status_code == 200
    # As long as a full sign-in, not the game link's few days.
    assert client.session.get_expiry_age() == timedelta(days=30).total_seconds()


def test_a_game_link_keeps_a_full_sign_in_full(toy_game, bert):
    client = Client()
    client.force_login(bert)
    enter(client, toy_game, bert)
    assert SESSION_KEY not in client.session
    assert client.get("/settings/").status_code == 200


def test_a_game_link_session_ends_after_game_link_days(toy_game, bert, settings):
    settings.GAME_LINK_DAYS = 2
    client = Client()
    enter(client, toy_game, bert)
    assert client.session.get_expiry_age() == 2 * 24 * 60 * 60


# --- (a) Expiring ---------------------------------------------------------------------------


def test_a_game_link_expires_after_game_link_days(toy_game, bert, settings):
    settings.GAME_LINK_DAYS = 3
    path = entry_path(toy_game, bert)
    with time_machine.travel(timezone.now() + timedelta(days=3, hours=-1)):
        assert Client().get(path).status_code == 200
    with time_machine.travel(timezone.now() + timedelta(days=3, hours=1)):
        client = Client()
        response = client.get(path)
        assert response.status_code == 410
        page = response.content.decode()
        assert "This link has expired" in page
        # It offers a login link, which leads back to the game.
        assert f'action="{reverse("accounts:login")}"' in page
        assert f'value="{table_url(toy_game)}"' in page
        assert client.post(path).status_code == 410
        assert "_auth_user_id" not in client.session


# --- (c) Sign out everywhere ------------------------------------------------------------------


def sign_out_everywhere(client: Client):
    page = client.get("/settings/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())[1]
    return client.post("/settings/", {"form": "sign_out_everywhere", "csrfmiddlewaretoken": token})


def test_sign_out_everywhere_ends_every_session_and_link(
    toy_game, bert, mailoutbox, django_capture_on_commit_callbacks
):
    laptop = Client(enforce_csrf_checks=True)
    laptop.force_login(bert)
    phone = Client()
    phone.force_login(bert)
    by_game_link = Client()
    enter(by_game_link, toy_game, bert)
    old_link = entry_path(toy_game, bert)
    unused_login_link = login_link_path(bert.email, mailoutbox, django_capture_on_commit_callbacks)

    response = sign_out_everywhere(laptop)

    assert response.status_code == 302 and response["Location"] == reverse("accounts:login")
    assert "signed out everywhere" in laptop.get(response["Location"]).content.decode()
    for client in (laptop, phone):
        assert is_signed_out_on(client, "/settings/")
    assert is_signed_out_on(by_game_link, table_url(toy_game))
    assert Client().get(old_link).status_code == 410
    assert Client().post(unused_login_link).status_code == 410
    assert LoginLink.objects.filter(used_at=None).count() == 0
    # The emails from now on sign in again.
    bert.refresh_from_db()
    fresh = Client()
    assert enter(fresh, toy_game, bert).status_code == 302
    assert fresh.get(table_url(toy_game)).status_code == 200


def test_sign_out_everywhere_needs_the_pages_csrf_token(bert):
    client = Client(enforce_csrf_checks=True)
    client.force_login(bert)
    assert client.post("/settings/", {"form": "sign_out_everywhere"}).status_code == 403
    bert.refresh_from_db()
    assert bert.session_generation == 0
    assert client.get("/settings/").status_code == 200


def test_sessions_from_before_sign_out_everywhere_existed_stay_valid(bert):
    # Generation 0 is Django's own hash: deploying the field signs nobody out.
    assert bert.get_session_auth_hash() == AbstractBaseUser.get_session_auth_hash(bert)
    bert.session_generation = 1
    assert bert.get_session_auth_hash() != AbstractBaseUser.get_session_auth_hash(bert)


def test_sign_out_everywhere_outlives_a_secret_key_rotation(bert, settings):
    """A session from before a key rotation is checked against SECRET_KEY_FALLBACKS' hashes:
    those carry the generation too."""
    old_key = settings.SECRET_KEY
    session_hash = bert.get_session_auth_hash()
    settings.SECRET_KEY = "rotated-" + "y" * 50
    settings.SECRET_KEY_FALLBACKS = [old_key]
    assert session_hash in list(bert.get_session_auth_fallback_hash())
    bert.session_generation = 1
    assert session_hash not in list(bert.get_session_auth_fallback_hash())
