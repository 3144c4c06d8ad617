"""People in a real browser: Anna follows Bert from his page, challenges him (the create
form opens with him in it, by name, his address never shown) and starts the game; Carla,
on a phone in German, blocks Anna, who then finds no challenge button on Carla's page, and
lifts the block from "My people". Every page is checked as conftest.Visitor says (console,
CSP, axe), at 1280x800 and 390x844, in English and German."""

import pytest

from games.models import Game
from people.models import Block, Follow
from tests.browser import flows
from tests.browser.conftest import PHONE
from tests.factories import make_user

pytestmark = pytest.mark.browser

DESKTOP_800 = {"width": 1280, "height": 800}


def sign_in_any_language(visitor, email: str, start: str) -> None:
    """``flows.sign_in`` by the form's fields, not its English words: for a German visitor."""
    visitor.open(start)
    visitor.page.locator("main input[type=email]").fill(email)
    visitor.click(visitor.page.locator("main form button[type=submit]"))
    visitor.open(visitor.site.link_in_last_email(email, flows.LOGIN_LINK))
    visitor.click(visitor.page.locator("main form button[type=submit]"))


def test_follow_challenge_and_block(site, visitors):
    anna = make_user("anna@example.com", display_name="Anna")
    bert = make_user("bert@example.com", display_name="Bert")
    carla = make_user("carla@example.com", display_name="Carla")

    host = visitors("Anna", viewport=DESKTOP_800)
    flows.sign_in(host, "anna@example.com", start=f"/people/{bert.public_id}/")
    host.click(host.page.locator("[data-follow]"))
    assert Follow.objects.filter(follower=anna, player=bert).exists()
    assert host.page.locator("[data-unfollow]").count()
    host.assert_no_horizontal_scroll()

    # The challenge: the create form with Bert in it, by name only.
    host.click(host.page.locator("[data-challenge]"))
    chip = host.page.locator(f'[data-challenged="{bert.public_id}"]')
    assert "Bert" in chip.inner_text()
    assert "bert@example.com" not in host.page.content()
    host.assert_no_horizontal_scroll()
    host.click("Create the game")
    game = Game.objects.get()
    assert [seat.user for seat in game.seats.order_by("seat")] == [anna, bert]
    assert f"/games/{game.id}/" in host.page.url

    host.open("/people/")
    assert host.page.locator(f'[data-following="{bert.public_id}"]').count()
    host.assert_no_horizontal_scroll()
    flows.switch_language(host, "de")
    assert host.page.locator("html").get_attribute("lang") == "de"
    host.assert_no_horizontal_scroll()

    # Carla, on a phone in German, blocks Anna from Anna's page.
    blocker = visitors("Carla", viewport=PHONE, locale="de")
    sign_in_any_language(blocker, "carla@example.com", f"/people/{anna.public_id}/")
    assert blocker.page.locator("html").get_attribute("lang") == "de"
    blocker.click(blocker.page.locator("[data-block]"))
    assert Block.objects.filter(blocker=carla, blocked=anna).exists()
    assert blocker.page.locator("[data-unblock]").count()
    assert not blocker.page.locator("[data-challenge]").count()
    blocker.assert_no_horizontal_scroll()

    # Anna sees Carla's page as anyone's, but without a challenge button.
    host.open(f"/people/{carla.public_id}/")
    assert not host.page.locator("[data-challenge]").count()
    assert host.page.locator("[data-follow]").count() and host.page.locator("[data-block]").count()

    # Carla lifts the block from "My people".
    blocker.open("/people/")
    listed = blocker.page.locator(f'[data-blocked="{anna.public_id}"]')
    blocker.assert_no_horizontal_scroll()
    blocker.click(listed.get_by_role("button"))
    assert not Block.objects.exists()
    assert blocker.page.url.endswith("/people/")
