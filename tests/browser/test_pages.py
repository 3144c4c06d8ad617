"""The pages around a game in a real browser: signing in from the login email, answering
an invitation on a phone, the language switch. Every page is checked as conftest.Visitor
says (console, axe, secrets)."""

import pytest

from games import actions
from games.models import GameStatus
from tests.browser import flows
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.hidden import HiddenInformationScan
from tests.factories import make_user, start_game

pytestmark = pytest.mark.browser


def test_signing_in_from_the_login_email_lands_on_my_games(site, visitors):
    anna = visitors("Anna")
    flows.sign_in(anna, "anna@example.com")
    landed = anna.where  # (redacted: a failed login would stay on its link's page)
    assert landed == f"{site.url}/games/"
    # The header says who is signed in and offers to log out, on this page as on every one.
    assert anna.page.get_by_text("Signed in as").count()
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
    language = carla.page.locator("html").get_attribute("lang")
    assert language == "de"
    carla.assert_no_horizontal_scroll()
    carla.screenshot("invitation-de-phone")
    carla.click(carla.page.locator('button[value="decline"]'))
    game.refresh_from_db()
    assert game.status == GameStatus.CANCELLED

    bert = visitors("Bert")
    bert.open(site.link_in_last_email("bert@example.com", flows.INVITATION_LINK))
    can_accept = bert.page.locator('button[value="accept"]').count()
    assert not can_accept


def test_the_replay_of_a_blind_game_shows_each_player_only_what_they_saw(site, visitors):
    """Seed 4: Bert's first reveal is a rat alert. Stepping through the replay move by
    move (keyboard and links), neither player's pages show a card rules P23 hides."""
    users = [make_user("anna@example.com", display_name="Anna"), make_user("bert@example.com")]
    game = start_game(users, seed=4, blind=True)
    game = flows.play_on_server(game, users, until=lambda game: game.version == 7)
    assert game.moves.filter(action__action="resolve_alarm").exists()
    for seat, name in enumerate(["Anna", "Bert"]):
        visitor = visitors(name, viewport=PHONE if seat else DESKTOP)
        visitor.scanners.append(HiddenInformationScan(game.id, seat))
        flows.enter_game(visitor, users[seat].email, game.id)
        flows.step_through_the_replay(visitor, game)
        assert visitor.scanners[0].scanned >= game.version


def test_the_replay_of_a_finished_game_explains_the_scoring(site, visitors):
    users = [make_user("anna@example.com", display_name="Anna"), make_user("bert@example.com")]
    game = flows.play_on_server(start_game(users, seed=11), users)
    assert game.status == GameStatus.FINISHED
    anna = visitors("Anna")
    anna.scanners.append(HiddenInformationScan(game.id, 0))
    # The game-over email links to the plain game page: signing in lands there.
    flows.sign_in(anna, users[0].email, start=f"/games/{game.id}/")
    landed = anna.where
    assert landed == f"{site.url}/games/{game.id}/"
    flows.step_through_the_replay(anna, game, arrows=3)
    anna.screenshot("replay-scoring-en")


# The site's menu, the same on every page, in its order for a signed-in player ("Compete"
# and "Rules" open lists).
MENU = ["My games", "Next game", "Lobby", "Quick match", "Watch", "Compete", "Settings", "Rules"]
# What "Compete" lists.
COMPETE = ("Tournaments", "Leagues", "Leaderboards")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_has_the_same_menu_and_reads_well_in_either_theme(site, visitors, scheme):
    """The header's menu on each page a signed-in player reaches from it, on a phone in
    the device's colour scheme: axe checks each page's contrast (conftest.Visitor), and
    no page scrolls sideways."""
    anna = visitors("Anna", viewport=PHONE)
    anna.page.emulate_media(color_scheme=scheme)
    flows.sign_in(anna, "anna@example.com")
    nav = anna.page.get_by_role("navigation", name="Site")
    for name in ("Lobby", "Quick match", "Watch", *COMPETE, "Settings", "My games"):
        if name in COMPETE:
            nav.get_by_text("Compete", exact=True).click()  # opens without JavaScript
        anna.click(nav.get_by_role("link", name=name, exact=True))
        menu = nav.locator(":scope > ul > li > a, :scope > ul > li > details > summary")
        items = [item.strip(" ▾") for item in menu.all_inner_texts()]
        assert items == MENU, (anna.where, items)
        assert nav.locator("[aria-current=page]").text_content() == name
        anna.assert_no_horizontal_scroll()
    nav.get_by_text("Rules", exact=True).click()  # opens without JavaScript (<details>)
    anna.click(nav.get_by_role("link", name="Piratz", exact=True))
    assert anna.where == f"{site.url}/rules/piratz/"
    anna.assert_no_horizontal_scroll()
    # The theme followed the device: the dark page colour (static/css/site.css) or not.
    page_colour = anna.page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert (page_colour == "rgb(18, 22, 28)") == (scheme == "dark"), page_colour
