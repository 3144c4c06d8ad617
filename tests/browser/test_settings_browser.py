"""Settings in a real browser on a phone: choose the name others see, make an API key
(shown once) and revoke it; and the create form's "played with" boxes filling the player
fields by script. Every page is checked as conftest.Visitor says (console, CSP, axe)."""

import re

import pytest

from accounts.models import ApiToken, User
from tests.browser import flows
from tests.browser.conftest import PHONE
from tests.factories import make_user, start_game

pytestmark = pytest.mark.browser


def test_name_and_api_keys_on_a_phone(site, visitors):
    make_user("anna@example.com")
    anna = visitors("Anna", viewport=PHONE)
    flows.sign_in(anna, "anna@example.com", start="/settings/")
    anna.page.get_by_label(re.compile("^Your name")).fill("Captain Flint")
    anna.click("Save the name")
    assert anna.page.get_by_text("Other players now see you as Captain Flint.").count()
    assert User.objects.get(email="anna@example.com").display_name == "Captain Flint"
    anna.assert_no_horizontal_scroll()

    anna.click(anna.page.get_by_role("link", name="Manage your API keys"))
    anna.page.get_by_label(re.compile("^Name of the key")).fill("my bot")
    anna.click("Make the key")
    key = anna.page.locator("[data-new-api-key]").input_value()
    token = ApiToken.objects.get(user__email="anna@example.com")
    assert key.startswith(token.prefix) and ApiToken.hash_key(key) == token.key_hash
    anna.assert_no_horizontal_scroll()
    anna.screenshot("api-keys-en-phone")

    anna.open("/settings/api-keys/")
    assert not anna.page.locator("[data-new-api-key]").count()  # shown once only
    anna.click("Revoke my bot")
    assert anna.page.get_by_text("The API key is revoked").count()
    assert not ApiToken.objects.filter(user__email="anna@example.com").exists()


def test_played_with_boxes_fill_the_player_fields(site, visitors):
    anna_user = make_user("anna@example.com", display_name="Anna")
    bert_user = make_user("bert@example.com", display_name="Bert")
    start_game([anna_user, bert_user])
    anna = visitors("Anna")
    flows.sign_in(anna, "anna@example.com", start="/games/")
    box = anna.page.get_by_label("Bert <bert@example.com>")
    box.check()
    assert anna.page.get_by_label(re.compile(r"^Player 2\b")).input_value() == "bert@example.com"
    box.uncheck()
    assert anna.page.get_by_label(re.compile(r"^Player 2\b")).input_value() == ""
    box.check()
    anna.click("Create the game")
    assert "/games/" in anna.where and anna.where != f"{site.url}/games/"
