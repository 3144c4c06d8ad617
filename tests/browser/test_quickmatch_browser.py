"""Quick match in a real browser: Anna (English, 1280x800) and Bert (German, on a phone)
each post a seek from the page the menu leads to, the pairing worker's task runs, and both
find the started game on the page and open it. Every page is checked as conftest.Visitor
says (console, CSP, axe), and the game's pages are scanned for its hidden information."""

import pytest

from core.tasks import task_named
from games.models import Game
from quickmatch.models import Seek, SeekStatus
from tests.browser import flows
from tests.browser.conftest import PHONE
from tests.browser.hidden import HiddenInformationScan
from tests.factories import make_user

pytestmark = pytest.mark.browser

DESKTOP_800 = {"width": 1280, "height": 800}


def post_seek(visitor, *, players: str, low: str, high: str) -> None:
    form = visitor.page.locator("form[data-seek-form]")
    form.locator("select[name=game]").select_option("piratz")
    form.locator("select[name=players]").select_option(players)
    form.locator("input[name=turn_hours_min]").fill(low)
    form.locator("input[name=turn_hours_max]").fill(high)
    visitor.click(form.locator("button[type=submit]"))


def test_two_seekers_are_paired_and_both_find_the_game(site, visitors, monkeypatch):
    # The worker runs when the test says (not on the seek's commit), as beat would run it.
    worker = task_named("quickmatch.tasks.pair_seeks")
    monkeypatch.setattr(worker, "delay", lambda: None)
    anna = make_user("anna@example.com", display_name="Anna")
    bert = make_user("bert@example.com", display_name="Bert")

    desk = visitors("Anna", viewport=DESKTOP_800)
    flows.sign_in(desk, anna.email, start="/games/")
    desk.click(desk.page.get_by_role("link", name="Quick match"))
    assert desk.page.url.endswith("/quickmatch/")
    post_seek(desk, players="2", low="24", high="48")
    assert desk.page.get_by_text("Your seek is posted.").count()
    waiting = desk.page.locator("[data-seeks-waiting] li")
    assert waiting.count() == 1 and "24 to 48 hours per turn" in waiting.inner_text()
    desk.assert_no_horizontal_scroll()

    phone = visitors("Bert", viewport=PHONE)
    flows.sign_in(phone, bert.email, start="/quickmatch/")
    flows.switch_language(phone, "de")
    assert phone.page.locator("html").get_attribute("lang") == "de"
    assert phone.page.get_by_role("heading", name="Schnelle Partie").count()
    post_seek(phone, players="2", low="36", high="96")
    assert phone.page.get_by_text("Dein Gesuch ist aufgegeben.").count()
    assert "36 bis 96 Stunden pro Zug" in phone.page.locator("[data-seeks-waiting]").inner_text()
    phone.assert_no_horizontal_scroll()
    assert Seek.objects.filter(status=SeekStatus.WAITING).count() == 2

    assert worker.apply().get() == 1  # the pairing worker: one game for the two
    game = Game.objects.get()
    assert game.public and game.turn_hours == 42  # the middle of 36-48
    seats = {seat.user_id: seat.seat for seat in game.seats.all()}

    phone.scanners.append(HiddenInformationScan(game.id, seats[bert.pk]))
    phone.reload()
    assert not phone.page.locator("[data-seeks-waiting]").count()
    recent = phone.page.locator("[data-seeks-recent]")
    assert "vermittelt" in recent.inner_text()
    phone.click(recent.get_by_role("link", name="Spiel öffnen"))
    assert phone.page.url.endswith(f"/games/{game.id}/")
    phone.assert_no_horizontal_scroll()

    desk.scanners.append(HiddenInformationScan(game.id, seats[anna.pk]))
    desk.reload()
    desk.click(desk.page.get_by_role("link", name="Open the game"))
    assert desk.page.url.endswith(f"/games/{game.id}/")
    assert desk.page.locator("[data-version]").count()
    assert desk.scanners[0].scanned > 0, "the hidden-information scan never ran"
    # Both were told by email that the game started (Bert's after his login link).
    assert any("has started" in email.subject for email in site.emails_to(anna.email))
    assert len(site.emails_to(bert.email)) >= 2
