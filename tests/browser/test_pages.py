"""The pages around a game in a real browser: signing in from the login email, answering
an invitation on a phone, the language switch. Every page is checked as conftest.Visitor
says (console, axe, secrets)."""

import pytest

from games import actions
from games.models import GameStatus
from tests.browser import flows
from tests.browser.conftest import PHONE
from tests.browser.hidden import HiddenInformationScan
from tests.factories import make_user

pytestmark = pytest.mark.browser


def test_signing_in_from_the_login_email_lands_on_the_home_page(site, visitors):
    anna = visitors("Anna")
    flows.sign_in(anna, "anna@example.com")
    assert anna.page.url == f"{site.url}/"
    assert anna.page.get_by_role("button", name="Log out").count()


def test_an_invitation_declined_on_a_phone_in_german(site, visitors):
    """Carla opens her invitation on a phone, switches the page to German and declines;
    Bert's invitation link then says the game will not take place."""
    anna = make_user("anna@example.com", display_name="Anna")
    game = actions.do_create_game(anna, [anna.email, "bert@example.com", "carla@example.com"])
    carla = visitors("Carla", viewport=PHONE)
    carla.scanners.append(HiddenInformationScan(game.id, 2))
    carla.open(site.link_in_last_email("carla@example.com", flows.INVITATION_LINK))
    carla.assert_no_horizontal_scroll()
    flows.switch_language(carla, "de")
    assert carla.page.locator("html").get_attribute("lang") == "de"
    carla.assert_no_horizontal_scroll()
    carla.screenshot("invitation-de-phone")
    carla.click(carla.page.locator('button[value="decline"]'))
    game.refresh_from_db()
    assert game.status == GameStatus.CANCELLED

    bert = visitors("Bert")
    bert.open(site.link_in_last_email("bert@example.com", flows.INVITATION_LINK))
    assert not bert.page.locator('button[value="accept"]').count()
