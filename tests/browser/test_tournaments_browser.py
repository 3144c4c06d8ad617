"""Tournaments in a real browser: an organiser creates a Swiss from the form, a player on
a phone signs up, the start pairs round 1 and the page shows the pairings (with the games
to watch) and the standings with Buchholz, in English and German; an elimination of six
shows its bracket with the top seeds' byes at 1280 wide and on a phone. Every page is
checked as conftest.Visitor says (console, CSP, axe); the player's pages are scanned for
their running game's hidden information."""

from datetime import timedelta

import pytest
from django.db.models import Q
from django.utils import timezone

from tests.browser import flows
from tests.browser.conftest import PHONE
from tests.browser.hidden import HiddenInformationScan
from tests.factories import make_user
from tournaments import actions
from tournaments.models import Pairing, Tournament

pytestmark = pytest.mark.browser

DESKTOP_1280 = {"width": 1280, "height": 800}


def _start_now(t: Tournament) -> None:
    """The start time has come: the sweep pairs round 1 (as beat would run it)."""
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    assert actions.start_due_tournaments() == 1


def test_a_swiss_from_the_form_to_its_first_round(site, visitors):
    make_user("anna@example.com", display_name="Anna")
    bert_user = make_user("bert@example.com", display_name="Bert")
    others = [make_user(f"{n}@example.com", display_name=n.title()) for n in ("carla", "dirk")]

    organiser = visitors("Anna", viewport=DESKTOP_1280)
    flows.sign_in(organiser, "anna@example.com", start="/tournaments/")
    organiser.click(organiser.page.get_by_role("link", name="New tournament"))
    form = organiser.page.locator("form[data-tournament-form]")
    form.get_by_label("Name of the tournament").fill("Winter Swiss")
    form.locator("select[name=game]").select_option("piratz")
    form.get_by_label("Rounds (Swiss)").fill("3")
    starts = timezone.localtime(timezone.now() + timedelta(days=1))
    form.get_by_label("Start (your time zone)").fill(starts.strftime("%Y-%m-%dT%H:%M"))
    organiser.click("Create the tournament")
    t = Tournament.objects.get(name="Winter Swiss")
    assert organiser.page.url.endswith(f"/tournaments/{t.id}/")
    assert organiser.page.get_by_text("signing up").count()

    bert = visitors("Bert", viewport=PHONE)
    flows.sign_in(bert, "bert@example.com", start="/tournaments/")
    assert bert.page.locator("[data-tournaments=signup]").get_by_text("Winter Swiss").count()
    bert.click(bert.page.get_by_role("link", name="Winter Swiss"))
    bert.assert_no_horizontal_scroll()
    bert.click("Sign up")
    assert bert.page.get_by_text("You are signed up.").count()
    assert bert.page.locator("[data-entrants]").get_by_text("Bert").count()

    for person in others:
        actions.do_sign_up(t.id, person)
    _start_now(t)
    mine = Pairing.objects.filter(round__tournament=t, second__isnull=False).get(
        Q(first__user=bert_user) | Q(second__user=bert_user)
    )
    seat = 0 if mine.first.user_id == bert_user.pk else 1
    bert.scanners.append(HiddenInformationScan(mine.game_id, seat))
    bert.reload()
    bert.assert_no_horizontal_scroll()
    round_one = bert.page.locator("[data-round='1'] tbody tr")
    assert round_one.count() == 2  # three players: one game and a bye
    assert round_one.get_by_text("bye").count() == 1
    standings = bert.page.locator("[data-standings]")
    assert standings.get_by_role("columnheader", name="Buchholz").count()
    assert standings.locator("tbody tr").count() == 3
    bert.click(bert.page.get_by_role("link", name="Watch the game"))
    assert bert.page.url.endswith(f"/games/{mine.game_id}/")
    bert.open(f"/tournaments/{t.id}/")
    assert bert.scanners[0].scanned > 0, "the hidden-information scan never ran"
    flows.switch_language(bert, "de")
    assert bert.page.locator("html").get_attribute("lang") == "de"
    assert bert.page.get_by_role("heading", name="Tabelle").count()
    bert.assert_no_horizontal_scroll()
    organiser.open(f"/tournaments/{t.id}/")
    assert organiser.page.locator("[data-round='1']").count()


def test_an_elimination_bracket_on_a_desk_and_a_phone(site, visitors):
    names = ["Anna", "Bert", "Carla", "Dirk", "Emil", "Frieda"]
    people = [make_user(f"{n.lower()}@example.com", display_name=n) for n in names]
    t = actions.do_create_tournament(
        people[0],
        name="Cup",
        game="piratz",
        format="elimination",
        starts_at=timezone.now() + timedelta(hours=1),
    )
    for person in people:
        actions.do_sign_up(t.id, person)
    _start_now(t)

    for viewport, locale in ((DESKTOP_1280, "en"), (PHONE, "de")):
        visitor = visitors("Carla", viewport=viewport)
        flows.sign_in(visitor, "carla@example.com", start=f"/tournaments/{t.id}/")
        if locale == "de":
            flows.switch_language(visitor, "de")
        bracket = visitor.page.locator("[data-bracket]")
        assert bracket.locator(".bracket__round").count() == 3
        first_round = bracket.locator(".bracket__round").first.locator("[data-match]")
        assert first_round.count() == 4
        # Seeds 1 and 2 (the two best-rated: all equal here, so the first to sign up) have byes.
        assert bracket.locator(".bracket__player--through").count() == 2
        assert bracket.get_by_role("link").count() == 2  # the two games of round 1
        visitor.assert_no_horizontal_scroll()
        if locale == "de":
            assert visitor.page.get_by_role("heading", name="Tabelle").count()
