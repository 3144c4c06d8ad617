"""The lobby in a real browser: Anna (desktop) creates an open game from the lobby, Carla
reads the lobby in German on a phone, Bert joins with one click on a phone and lands at
the running table. Every page is checked as conftest.Visitor says (console, CSP, axe), and
Bert's table is scanned for the game's hidden information."""

import pytest

from games.models import Game, GameStatus
from lobby.models import Closed, OpenGame
from tests.browser import flows
from tests.browser.conftest import PHONE
from tests.browser.hidden import HiddenInformationScan
from tests.factories import make_user

pytestmark = pytest.mark.browser

DESKTOP_800 = {"width": 1280, "height": 800}


def test_an_open_game_from_the_lobby_to_its_start(site, visitors):
    make_user("anna@example.com", display_name="Anna")
    make_user("bert@example.com", display_name="Bert")
    make_user("carla@example.com", display_name="Carla", language="de")

    host = visitors("Anna", viewport=DESKTOP_800)
    flows.sign_in(host, "anna@example.com", start="/lobby/")
    host.click(host.page.get_by_role("link", name="Create an open game"))
    form = host.page.locator("form[data-open-game-form]")
    form.get_by_label("Hours per turn").fill("48")
    host.click("Put the game in the lobby")
    host.assert_no_horizontal_scroll()
    open_game = OpenGame.objects.get()
    assert host.page.url.endswith("/lobby/")
    assert host.page.get_by_role("button", name="Withdraw my game").count() == 1

    # Carla reads the site in German (her settings say so), on a phone: the lobby lists
    # Anna's game.
    reader = visitors("Carla", viewport=PHONE)
    flows.sign_in(reader, "carla@example.com", start="/lobby/")
    assert reader.page.locator("html").get_attribute("lang") == "de"
    assert reader.page.locator(f'[data-open-game="{open_game.pk}"]').count() == 1
    reader.assert_no_horizontal_scroll()

    # Bert, on a phone, takes the last seat with one click: the game starts.
    joiner = visitors("Bert", viewport=PHONE)
    flows.sign_in(joiner, "bert@example.com", start="/lobby/")
    joiner.scanners.append(HiddenInformationScan(open_game.pk, 1))
    joiner.assert_no_horizontal_scroll()
    joiner.click(joiner.page.get_by_role("button", name="Join Anna's game of Piratz"))
    assert joiner.page.url.endswith(f"/games/{open_game.pk}/")
    assert joiner.page.locator("[data-version]").count()
    game = Game.objects.get(pk=open_game.pk)
    assert game.status == GameStatus.ACTIVE and game.public
    assert OpenGame.objects.get().closed == Closed.STARTED
    assert joiner.scanners[0].scanned > 0, "the hidden-information scan never ran"

    # The game left the lobby; the lobby in German, at both sizes.
    flows.switch_language(joiner, "de")
    joiner.open("/lobby/")
    assert joiner.page.locator("[data-open-game]").count() == 0
    host.open("/lobby/")
    flows.switch_language(host, "de")
    assert host.page.locator("html").get_attribute("lang") == "de"
    host.assert_no_horizontal_scroll()
