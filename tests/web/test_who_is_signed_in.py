"""Every page says who this browser is signed in as, and a game link opened where somebody
else is signed in asks before it switches accounts."""

import pytest
from django.test import Client
from django.utils import translation

from accounts.game_scope import SESSION_KEY
from tests.factories import start_game
from tests.web.game_links import entry_path, site_url  # noqa: F401  (site_url: autouse)

pytestmark = pytest.mark.django_db


def test_the_header_names_the_signed_in_player_and_offers_to_sign_out(anna):
    client = Client()
    client.force_login(anna)
    page = client.get("/settings/").content.decode()
    assert f"Signed in as {anna.public_name}" in page
    assert 'action="/accounts/logout/"' in page


def test_the_header_says_nobody_is_signed_in():
    page = Client().get("/accounts/login/").content.decode()
    assert "Not signed in" in page


def test_the_header_says_a_game_link_signs_in_for_its_game_only(anna, bert):
    game = start_game([anna, bert])
    client = Client()
    client.post(entry_path(game, bert))
    page = client.get(f"/games/{game.id}/").content.decode()
    assert f"Signed in as {bert.public_name}, for this game only" in page


def test_the_header_in_german(anna):
    client = Client()
    client.force_login(anna)
    page = client.get("/settings/", headers={"accept-language": "de"}).content.decode()
    with translation.override("de"):
        expected = translation.gettext("Signed in as %(name)s") % {"name": anna.public_name}
    assert expected != f"Signed in as {anna.public_name}"
    assert expected in page


def test_another_players_game_link_asks_before_switching(anna, bert):
    game = start_game([anna, bert])
    client = Client()
    client.force_login(anna)
    page = client.get(entry_path(game, bert)).content.decode()
    assert (
        f"This browser is signed in as {anna.public_name}, but this link is "
        f"{bert.public_name}'s." in page
    )
    assert f"Switch to {bert.public_name} and open the game" in page
    assert client.session["_auth_user_id"] == str(anna.pk)  # the GET changed nothing

    client.post(entry_path(game, bert))
    assert client.session["_auth_user_id"] == str(bert.pk)
    assert client.session[SESSION_KEY] == [str(game.id)]


def test_ones_own_game_link_does_not_ask(anna, bert):
    game = start_game([anna, bert])
    client = Client()
    client.force_login(bert)
    page = client.get(entry_path(game, bert)).content.decode()
    assert "This browser is signed in as" not in page
    assert "Open the game" in page


def test_another_players_game_link_asks_in_german(anna, bert):
    game = start_game([anna, bert])
    client = Client()
    client.force_login(anna)
    page = client.get(entry_path(game, bert), headers={"accept-language": "de"}).content.decode()
    assert f"Zu {bert.public_name} wechseln und das Spiel öffnen" in page
