"""Leagues in a real browser: an organiser on a phone creates a blind round robin from My
games, the players accept from their emailed links (one in German), the games start and
the league page shows them with the standings. Every page is checked as conftest.Visitor
says (console, CSP, axe), and the organiser's pages are scanned for the running game's
hidden information (rules P23)."""

import re

import pytest

from leagues.models import League, LeagueGame, LeagueGameStatus
from tests.browser import flows
from tests.browser.conftest import PHONE
from tests.browser.hidden import HiddenInformationScan
from tests.factories import make_user

pytestmark = pytest.mark.browser

LEAGUE_INVITATION_LINK = r"/leagues/invitation/[^/\s]+/"


def test_a_league_from_creation_to_its_first_games(site, visitors):
    anna = make_user("anna@example.com", display_name="Anna")
    make_user("bert@example.com", display_name="Bert")
    carla_user = make_user("carla@example.com", display_name="Carla")

    organiser = visitors("Anna", viewport=PHONE)
    flows.sign_in(organiser, "anna@example.com", start="/games/")
    organiser.click(organiser.page.get_by_role("link", name="My leagues"))
    organiser.click(organiser.page.get_by_role("link", name="New league"))
    form = organiser.page.locator("form[data-league-form]")
    form.get_by_label("Name of the league").fill("Winter league")
    form.get_by_label("Blind mode (Piratz)").check()
    form.get_by_label("Most games running at once per player").fill("1")
    # Players by address and by display name, the organiser among them (last: the circle
    # method's first game pairs the last two, so one of hers starts at once).
    form.get_by_label(re.compile("^Players: one a line")).fill(
        "bert@example.com\nCarla\nanna@example.com"
    )
    organiser.click("Create the league")
    organiser.assert_no_horizontal_scroll()
    league = League.objects.get(name="Winter league")
    assert organiser.page.url.endswith(f"/leagues/{league.id}/")
    assert organiser.page.get_by_text("waiting for acceptances").count()
    assert not organiser.page.locator("[data-league-games]").count()

    bert = visitors("Bert")
    bert.open(site.link_in_last_email("bert@example.com", LEAGUE_INVITATION_LINK))
    bert.click("Accept")
    assert bert.page.get_by_text("The league starts when everyone has answered.").count()

    # The last answer, in German on a phone: the schedule is made, and the task queued
    # after its commit starts the first games (eagerly in the test settings).
    carla = visitors("Carla", viewport=PHONE, locale="de")
    carla.open(site.link_in_last_email(carla_user.email, LEAGUE_INVITATION_LINK))
    assert carla.page.locator("html").get_attribute("lang") == "de"
    carla.click("Annehmen")
    assert carla.page.get_by_text("Diese Liga: läuft.").count()
    carla.assert_no_horizontal_scroll()

    rows = LeagueGame.objects.filter(league=league)
    assert rows.count() == 3  # three players, every pair once
    started = rows.get(status=LeagueGameStatus.STARTED)  # one game each at most
    # The organiser's pages are scanned as her seat in the running (blind) game.
    seat = started.players.index(anna.pk)
    organiser.scanners.append(HiddenInformationScan(started.game_id, seat))
    organiser.reload()
    organiser.assert_no_horizontal_scroll()
    games = organiser.page.locator("[data-league-games] tbody tr")
    assert games.count() == 3
    assert games.get_by_role("link").count() == 1  # the running game, linked
    assert games.get_by_text("scheduled").count() == 2
    standings = organiser.page.locator("[data-standings] tbody tr")
    assert sorted(standings.nth(i).locator("td").nth(1).inner_text() for i in range(3)) == [
        "Anna",
        "Bert",
        "Carla",
    ]
    organiser.click(games.get_by_role("link"))  # her running game, from the league page
    assert organiser.page.url.endswith(f"/games/{started.game_id}/")
    assert organiser.page.locator("[data-version]").count()
    organiser.open(f"/leagues/{league.id}/")
    assert organiser.scanners[0].scanned > 0, "the hidden-information scan never ran"
    flows.switch_language(organiser, "de")
    assert organiser.page.get_by_role("heading", name="Tabelle").count()
    assert organiser.page.locator("[data-league-games]").get_by_text("geplant").count() == 2
