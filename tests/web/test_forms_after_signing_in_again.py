"""A form opened before the player signs in again still works; a refused form (CSRF) gets the
site's own page, which says nothing was done and leads back (Django test client, real CSRF
checks)."""

import json
import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from accounts.login_links import request_login_link
from accounts.models import LoginLink
from tests.factories import toy_move
from tests.web.game_links import entry_path, site_url  # noqa: F401  (site_url: autouse)

pytestmark = pytest.mark.django_db

CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def table_url(game) -> str:
    return reverse("games:game", args=[game.id])


def move_url(game) -> str:
    return reverse("games:move", args=[game.id])


def signed_in_with_csrf(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def form_token(page: str) -> str:
    """The CSRF token of the page's forms (every form of a page carries the same one)."""
    tokens = set(CSRF_FIELD.findall(page))
    assert len(tokens) == 1, tokens
    return tokens.pop()


def open_table(client: Client, game) -> str:
    """Tab A: the table, its move form's CSRF token kept for later."""
    response = client.get(table_url(game))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-action="any"' in page
    return form_token(page)


def login_link_path(email: str, mailoutbox, capture, next_url: str = "") -> str:
    with capture(execute=True):
        assert request_login_link(email, next_url)
    [link] = re.findall(
        r"http://127\.0\.0\.1:8000(/accounts/login/[^/\s\"<]+/)", mailoutbox[-1].body
    )
    return link


def post_with_fresh_token(client: Client, path: str):
    """Tab B: open the emailed link and press its button, as a browser does."""
    page = client.get(path)
    assert page.status_code == 200
    return client.post(path, {"csrfmiddlewaretoken": form_token(page.content.decode())})


def play_first_move(client: Client, game, token: str):
    """The move form of version 0 (the toy game's first free cell), with ``token``."""
    move = json.dumps(toy_move(game))
    return client.post(move_url(game), {"version": "0", "move": move, "csrfmiddlewaretoken": token})


# --- Signing in again as the same player keeps the open forms working ------------------------


def test_the_game_link_of_the_player_already_signed_in_keeps_an_open_table_working(toy_game, anna):
    client = signed_in_with_csrf(anna)
    session_key = client.session.session_key
    old_token = open_table(client, toy_game)

    opened = post_with_fresh_token(client, entry_path(toy_game, anna))
    assert opened.status_code == 302 and opened["Location"] == table_url(toy_game)

    played = play_first_move(client, toy_game, old_token)
    assert played.status_code == 302 and played["Location"] == table_url(toy_game)
    toy_game.refresh_from_db()
    assert toy_game.version == 1
    # Still the same sign-in: no new session was needed for the same player.
    assert client.session.session_key == session_key
    assert client.session["_auth_user_id"] == str(anna.pk)


def test_the_login_link_of_the_player_already_signed_in_is_spent_and_keeps_forms_working(
    toy_game, anna, mailoutbox, django_capture_on_commit_callbacks
):
    client = signed_in_with_csrf(anna)
    old_token = open_table(client, toy_game)
    link = login_link_path(anna.email, mailoutbox, django_capture_on_commit_callbacks, "/games/")

    used = post_with_fresh_token(client, link)
    assert used.status_code == 302 and used["Location"] == "/games/"
    # Single use, signed in or not.
    assert LoginLink.objects.get().used_at is not None
    assert Client().post(link).status_code == 410

    played = play_first_move(client, toy_game, old_token)
    assert played.status_code == 302
    toy_game.refresh_from_db()
    assert toy_game.version == 1


def test_the_game_link_of_another_player_still_switches_the_sign_in(toy_game, anna, bert):
    client = signed_in_with_csrf(anna)
    old_session = client.session.session_key
    old_token = open_table(client, toy_game)

    opened = post_with_fresh_token(client, entry_path(toy_game, bert))
    assert opened.status_code == 302
    assert client.session["_auth_user_id"] == str(bert.pk)
    assert client.session.session_key != old_session  # Anna's session is not Bert's
    # Anna's old form is not Bert's: refused, and nothing was played.
    refused = play_first_move(client, toy_game, old_token)
    assert refused.status_code == 403
    toy_game.refresh_from_db()
    assert toy_game.version == 0


def test_the_login_link_of_another_player_still_switches_the_sign_in(
    anna, bert, mailoutbox, django_capture_on_commit_callbacks
):
    client = signed_in_with_csrf(anna)
    link = login_link_path(bert.email, mailoutbox, django_capture_on_commit_callbacks)
    assert post_with_fresh_token(client, link).status_code == 302
    assert client.session["_auth_user_id"] == str(bert.pk)


def test_a_signed_out_visitor_is_still_signed_in_by_the_game_link(toy_game, bert):
    client = Client(enforce_csrf_checks=True)
    opened = post_with_fresh_token(client, entry_path(toy_game, bert))
    assert opened.status_code == 302
    assert client.session["_auth_user_id"] == str(bert.pk)


# --- A refused form: the site's page, not Django's --------------------------------------------


def _main(page: str) -> str:
    return page[page.index("<main>") : page.index("</main>")]


def test_a_move_with_a_wrong_token_gets_the_friendly_page_and_changes_nothing(toy_game, anna):
    client = signed_in_with_csrf(anna)
    open_table(client, toy_game)

    response = play_first_move(client, toy_game, "x" * 64)

    assert response.status_code == 403
    page = response.content.decode()
    assert 'class="site-header"' in page and 'href="/games/"' in page  # the site's layout
    assert "This page was out of date" in page
    assert "Nothing was done" in page
    # Back to the table the form came from.
    assert f'href="{table_url(toy_game)}"' in _main(page)
    # The language switch returns there too, not to the POST-only address of the form.
    assert f'name="next" value="{table_url(toy_game)}"' in page
    # Not Django's page, nor its reason.
    assert "CSRF verification failed" not in page
    assert "CSRF token" not in page and "Reason given" not in page
    toy_game.refresh_from_db()
    assert toy_game.version == 0


def test_the_friendly_page_speaks_the_players_language(toy_game, anna, settings):
    settings.DEBUG = False
    anna.language = "de"
    anna.save(update_fields=["language"])
    client = signed_in_with_csrf(anna)
    response = play_first_move(client, toy_game, "x" * 64)
    assert response.status_code == 403
    assert response["Content-Language"] == "de"
    page = response.content.decode()
    assert '<html lang="de">' in page and "Meine Spiele" in page


def test_the_friendly_page_hides_djangos_reason_even_with_debug_on(toy_game, anna, settings):
    settings.DEBUG = True
    client = Client(enforce_csrf_checks=True)  # no cookie at all: "cookies are off"
    client.force_login(anna)
    response = play_first_move(client, toy_game, "x" * 64)
    assert response.status_code == 403
    page = response.content.decode()
    assert "This page was out of date" in page
    assert "CSRF cookie not set" not in page and "Reason given" not in page


def test_the_way_back_is_the_referring_page_of_this_site(toy_game, anna):
    client = signed_in_with_csrf(anna)
    back = "/games/?from=test"
    response = client.post(
        move_url(toy_game),
        {"csrfmiddlewaretoken": "x" * 64},
        HTTP_REFERER=f"http://testserver{back}",
    )
    assert response.status_code == 403
    assert f'href="{back.replace("&", "&amp;")}"' in _main(response.content.decode())


def test_the_way_back_never_leaves_the_site(anna):
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        "/settings/",
        {"csrfmiddlewaretoken": "x" * 64},
        HTTP_REFERER="https://evil.example/phish/",
    )
    assert response.status_code == 403
    main = _main(response.content.decode())
    assert "evil.example" not in main
    assert 'href="/settings/"' in main  # the page the form was on (it answers GET)


def test_the_language_switch_leads_back_to_its_own_page(toy_game, anna):
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        reverse("set_language"),
        {"csrfmiddlewaretoken": "x" * 64, "language": "de", "next": "/accounts/login/"},
    )
    assert response.status_code == 403
    links = re.findall(r'href="([^"]*)"', _main(response.content.decode()))
    assert "/accounts/login/" in [unescape(link) for link in links]
