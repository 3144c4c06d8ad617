"""The live table (issue 34) in two browsers: Anna's moves appear on Bert's page without a
reload within a second or two, who is at the table shows on both pages, Bert's turn
arriving in a tab he is not looking at says "Your turn" in the title and the icon, a
message Bert is typing is never swapped away, and a broken stream says so and falls back
to the version poll. Every page and fragment is checked as conftest.Visitor says."""

import random

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser import flows
from tests.browser.conftest import PHONE, Visitor
from tests.browser.hidden import HiddenInformationScan
from tests.factories import make_user, start_game

pytestmark = pytest.mark.browser

# How long a move may take to reach the other page (ms): the second, plus the
# poll of the test server's WSGI stream and a busy machine.
ARRIVES_WITHIN = 2_500

WATCH_UPDATES = """
window.__notReloaded = true;
window.__updates = [];
document.addEventListener("table:updated", (event) => window.__updates.push(event.detail));
"""


def at_the_table(visitor: Visitor, email: str, game: Game, seat: int) -> None:
    visitor.scanners.append(HiddenInformationScan(game.id, seat))
    flows.sign_in(visitor, email)
    visitor.open(f"/games/{game.id}/")


def wait_for_version(visitor: Visitor, version: int) -> None:
    """Wait (without reloading) until the page's table is at ``version``."""
    visitor.page.wait_for_function(
        f"() => document.querySelector('.game-table[data-version=\"{version}\"]') !== null",
        timeout=ARRIVES_WITHIN,
    )


def test_a_move_appears_on_the_other_page_without_a_reload(site, visitors):
    anna_user = make_user("anna@example.com", display_name="Anna")
    bert_user = make_user("bert@example.com", display_name="Bert")
    game = start_game([anna_user, bert_user], seed=4)
    anna = visitors("Anna")
    bert = visitors("Bert", viewport=PHONE)
    at_the_table(anna, "anna@example.com", game, 0)
    at_the_table(bert, "bert@example.com", game, 1)
    bert.page.evaluate(WATCH_UPDATES)
    # Bert's tab is in the background: the turn arriving must say so in its title.
    bert.page.evaluate("document.hasFocus = () => false")
    title = bert.page.title()

    # Both are at the table, and each page says so.
    for visitor in (anna, bert):
        expect(visitor.page.locator('.table-presence-seat[data-present-seat="0"]')).to_be_visible()
        expect(visitor.page.locator('.table-presence-seat[data-present-seat="1"]')).to_be_visible()

    # Anna reveals and ends her turn by clicking; Bert's page follows each move in place.
    rng = random.Random(1)
    flows.play(anna, "reveal", rng)
    wait_for_version(bert, 1)
    flows.play(anna, "end_turn", rng)
    wait_for_version(bert, 2)
    assert bert.page.evaluate("window.__notReloaded"), "Bert's page was reloaded"
    updates = bert.page.evaluate("window.__updates")
    assert updates[0] == {"before": 0, "after": 1} and updates[-1]["after"] == 2
    bert.check_page()
    assert flows.offered_actions(bert), "Bert's turn, but his page offers no move"
    assert bert.page.title() == f"Your turn · {title}"
    icon = bert.page.locator("link[rel~=icon]").get_attribute("href")
    assert icon.endswith("favicon-your-turn.svg")
    # Back in Bert's tab: the title and icon are the page's own again.
    bert.page.evaluate("document.hasFocus = () => true; window.dispatchEvent(new Event('focus'))")
    assert bert.page.title() == title

    # Bert types a message; a talk message from Anna does not swap his words away: a
    # notice offers the news, and shows it when he asks.
    bert.page.get_by_label("Your message to the table").fill("Wait for it")
    anna.page.get_by_label("Your message to the table").fill("Your turn, Bert")
    anna.click("Send")
    notice = bert.page.locator(".table-changed")
    expect(notice).to_be_visible(timeout=ARRIVES_WITHIN)
    assert bert.page.get_by_label("Your message to the table").input_value() == "Wait for it"
    bert.page.get_by_role("button", name="Show", exact=True).click()
    expect(bert.page.locator("#table-talk")).to_contain_text("Your turn, Bert")
    expect(notice).to_be_hidden()
    assert bert.page.evaluate("window.__notReloaded")
    bert.check_page()


def test_a_broken_stream_says_offline_and_the_poll_catches_up(site, visitors):
    anna_user = make_user("anna@example.com", display_name="Anna")
    bert_user = make_user("bert@example.com", display_name="Bert")
    game = start_game([anna_user, bert_user], seed=4)
    bert = visitors("Bert")
    at_the_table(bert, "bert@example.com", game, 1)
    bert.context.route("**/events", lambda route: route.abort())  # the network drops it
    bert.page.reload()  # checked at the end, once this test's own console errors are taken out
    offline = bert.page.get_by_text("Offline — reconnecting…")
    expect(offline).to_be_visible()
    flows.play_on_server(game, [anna_user, bert_user], until=lambda g: g.version == 1)
    bert.page.evaluate("window.__fireHeldTimers()")  # the version poll's next tick
    wait_for_version(bert, 1)
    bert.context.unroute("**/events")
    expect(offline).to_be_hidden(timeout=10_000)  # EventSource reconnects by itself
    # The refused connections are the browser's console errors this test caused.
    bert.console_errors = [line for line in bert.console_errors if "/events" not in line]
    bert.check_page()
