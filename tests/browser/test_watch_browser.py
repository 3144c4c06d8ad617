"""Watching a public game in a real browser: an anonymous visitor finds a blind public game on
the page of public games, watches it live while its players move, and never sees a card a
watcher may not (rules P23: no collection, only the latest log entry in full) nor the
players' table talk; then on a phone in German. 1280 by 800 and 390 by 844; every page is checked
as conftest.Visitor says (console, CSP, axe, and the hidden-information scan as a watcher)."""

import pytest

from games.kinds.piratz import rules as piratz
from games.models import Game
from games.movelog import public_log
from talk.actions import post_message
from tests.browser import flows
from tests.browser.conftest import PHONE
from tests.browser.hidden import HiddenInformationScan, Snapshot, _ids_in
from tests.factories import make_user, start_game

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}


class WatcherScan(HiddenInformationScan):
    """The hidden-information scan for a watcher of a public game: what they may see is the
    view for nobody and, while a blind game runs, the latest log entry alone (rules P23), not
    staff's whole log. Worked out here from the moves, not by the code under test."""

    def __init__(self, game_id):
        super().__init__(game_id, None)

    def snapshot(self, game: Game | None = None):
        game = game or Game.objects.get(id=self.game_id)
        if game.state is None:
            return game.version, None
        if game.version not in self.snapshots:
            state = game.load_state()
            view = piratz.view(state, None)
            log = public_log(game, None)  # staff's: every entry in full
            if game.blind and game.is_active:
                log = log[-1:]
            self.snapshots[game.version] = Snapshot(
                state=state,
                draw=list(piratz.dump(state)["draw"]),
                blind_and_running=game.blind and game.is_active,
                visible=frozenset(_ids_in(view) | _ids_in(log)),
                server_seed=game.server_seed,
            )
        return game.version, self.snapshots[game.version]


def test_an_anonymous_visitor_watches_a_blind_public_game_live(site, visitors):
    anna = make_user("anna@example.com", display_name="Anna")
    bert = make_user("bert@example.com", display_name="Bert")
    game = start_game([anna, bert], seed=4, blind=True, public=True)
    game = flows.play_on_server(game, [anna, bert], until=lambda g: g.version >= 4)
    post_message(game, bert, "Only for Anna's eyes")

    watcher = visitors("Watcher", viewport=DESKTOP)
    scan = WatcherScan(game.id)
    watcher.scanners.append(scan)
    watcher.open("/")
    watcher.click(watcher.page.get_by_role("link", name="Watch", exact=True))
    assert watcher.page.url.endswith("/games/public/")
    listed = watcher.page.locator(f'[data-public-game="{game.id}"] a')
    assert listed.inner_text() == "Anna, Bert"
    watcher.click(listed)
    assert watcher.page.locator("[data-watching]").count() == 1
    assert not watcher.page.locator("#table-talk").count()
    assert "Only for Anna" not in watcher.page.content()
    assert not watcher.page.locator("form[action$='/move/']").count()

    # The players move on: the watcher's table follows without a reload.
    moved = flows.play_on_server(
        Game.objects.get(id=game.id), [anna, bert], until=lambda g: g.version >= 7
    )
    watcher.live_refresh()
    shown = watcher.page.locator(".game-table").get_attribute("data-version")
    assert shown == str(moved.version)
    assert scan.scanned >= 3

    # The same on a phone, in German.
    phone = visitors("Zuschauerin", viewport=PHONE, locale="de")
    phone.scanners.append(WatcherScan(game.id))
    phone.open("/games/public/")
    assert phone.page.locator("html").get_attribute("lang") == "de"
    phone.assert_no_horizontal_scroll()
    phone.open(f"/games/{game.id}/")
    phone.assert_no_horizontal_scroll()
    assert phone.page.locator("[data-watching]").count() == 1


def test_the_host_opens_the_talk_and_a_watcher_reads_it(site, visitors):
    anna = make_user("anna@example.com", display_name="Anna")
    bert = make_user("bert@example.com", display_name="Bert")
    game = start_game([anna, bert], seed=5)
    post_message(game, bert, "Watch this, everyone")

    host = visitors("Anna", viewport=PHONE)
    flows.sign_in(host, "anna@example.com", start=f"/games/{game.id}/")
    host.click("Make the game public")
    host.click("Open the table talk to spectators")
    assert host.page.locator("[data-talk-public]").count() == 1

    watcher = visitors("Watcher", viewport=DESKTOP)
    watcher.scanners.append(WatcherScan(game.id))
    watcher.open(f"/games/{game.id}/")
    assert "Watch this, everyone" in watcher.page.locator("#table-talk").inner_text()
    assert not watcher.page.locator("#table-talk form").count()
