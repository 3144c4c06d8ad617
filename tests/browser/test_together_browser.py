"""Playing together in two browsers (issue 25): Bert, signed in on a phone, writes at the
table and reads the newest message right after his moves; Anna, the host, at a German
desktop through her game email's link, reads it beside the log, pauses the game with a
reason (everyone sees the banner) and resumes it; Bert resigns after confirming and plays
again, landing on the new game; Anna's game-link session is asked to sign in for that.
Every page is checked as conftest.Visitor says (console, CSP, axe, hidden information)."""

import re

import pytest

from games.models import Game, GameStatus
from tests.browser import flows
from tests.browser.conftest import PHONE, Visitor
from tests.browser.hidden import HiddenInformationScan
from tests.factories import make_user, start_game

pytestmark = pytest.mark.browser


def at_the_table(visitor: Visitor, email: str, game: Game, seat: int) -> None:
    visitor.scanners.append(HiddenInformationScan(game.id, seat))
    flows.enter_game(visitor, email, game.id)


def top_of(visitor: Visitor, selector: str) -> float:
    box = visitor.page.locator(selector).first.bounding_box()
    assert box, f"{visitor.name}: {selector} is not shown"
    return box["y"]


def test_talk_pause_resign_and_play_again(site, visitors):
    anna_user = make_user("anna@example.com", display_name="Anna")
    bert_user = make_user("bert@example.com", display_name="Bert")
    game = start_game([anna_user, bert_user], seed=4)
    anna = visitors("Anna", locale="de-DE")
    bert = visitors("Bert", viewport=PHONE)
    at_the_table(anna, "anna@example.com", game, 0)
    bert.scanners.append(HiddenInformationScan(game.id, 1))
    flows.sign_in(bert, "bert@example.com")
    bert.open(f"/games/{game.id}/")

    # Bert writes on his phone; the panel comes right after the play area, before the
    # score card and the log, so the newest message is read without scrolling past them.
    bert.page.get_by_label("Your message to the table").fill("Ahoy <Anna>! https://example.com")
    bert.click("Send")
    assert "Your message is on the table." in bert.page.locator(".messages").inner_text()
    newest = bert.page.locator("#table-talk .talk__message").first
    assert "Ahoy <Anna>! https://example.com" in newest.inner_text()
    assert bert.page.locator("#table-talk a").count() == 0  # the URL stays text
    assert top_of(bert, "#table-talk") < top_of(bert, "[data-score-card]")
    assert top_of(bert, "#table-talk") < top_of(bert, ".move-log")
    bert.assert_no_horizontal_scroll()

    # Anna reads it beside the log (the side column) and pauses the game with a reason.
    anna.reload()
    talk = anna.page.locator("#table-talk").bounding_box()
    main = anna.page.locator(".board__main").bounding_box()
    assert talk["x"] >= main["x"] + main["width"]
    assert "Ahoy <Anna>!" in anna.page.locator("#table-talk").inner_text()
    assert anna.page.locator("#table-talk .talk__report").count() == 1  # others' messages
    anna.page.get_by_label("Grund für die Pause (freiwillig)").fill("Mittagessen")
    anna.click("Spiel pausieren")
    assert "Vom Gastgeber pausiert bis" in anna.page.locator("[data-paused]").inner_text()
    bert.reload()
    banner = bert.page.locator("[data-paused]").inner_text()
    assert re.search(r"Paused by the host until .+: Mittagessen", banner), banner
    assert bert.page.locator("[data-host-chair]").count() == 0  # the host's alone
    anna.click("Spiel fortsetzen")
    assert anna.page.locator("[data-paused]").count() == 0

    # Bert resigns: a second, deliberate click after the warning.
    bert.reload()
    bert.page.locator("summary", has_text="Resign from this game").click()
    assert "A resignation is final." in bert.page.locator(".together-resign").inner_text()
    bert.click("Yes, resign")
    assert "You have resigned, and the game is over." in bert.page.inner_text("main")
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED

    # Bert plays again: the new game's page, and the same game when asked again.
    bert.reload()
    assert "resigned" in bert.page.locator(".board__players").inner_text()
    bert.click("Play again")
    game.refresh_from_db()
    assert game.rematch is not None
    assert f"/games/{game.rematch.id}/" in bert.page.url
    bert.open(f"/games/{game.id}/")
    bert.click(bert.page.locator("[data-rematch]"))  # "Go to the rematch": it exists now
    assert f"/games/{game.rematch.id}/" in bert.page.url
    assert Game.objects.count() == 2
    # Anna came by her game link, which opens the old game only: the rematch asks her to
    # sign in fully, and one click emails her own address a link back to it.
    anna.reload()
    assert "aufgegeben" in anna.page.locator(".board__players").inner_text()
    anna.click(anna.page.locator("[data-rematch]"))
    assert "/accounts/login/" in anna.page.url
    anna.click(anna.page.locator("[data-game-session] button"))
    assert "a***@example.com" in anna.page.inner_text("main")
    anna.open(site.link_in_last_email("anna@example.com", flows.LOGIN_LINK))
    anna.click(anna.page.locator("main form button"))
    assert f"/games/{game.rematch.id}/" in anna.page.url
