"""Names that fit (issue 34): players with 40-character names (one without a space), one
who resigned and one a bot stands in for, at a desktop (1280 x 800) and on a phone (390 x
844), in English and German. No page scrolls sideways, no text is cut off, each seat's
label stays short ("… · resigned", "… · bot") with its explanation once beside the names;
and "Wertklötzchen" on the Piratz score card breaks only where it may (a hyphen)."""

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import User
from games import actions
from games.models import Game
from tests.browser import flows
from tests.browser.conftest import PHONE, Visitor
from tests.browser.hidden import HiddenInformationScan
from tests.factories import make_user, start_game

pytestmark = pytest.mark.browser

DESKTOP_800 = {"width": 1280, "height": 800}
# 40 characters each, the longest a name may be (accounts.display_names.MAX_LENGTH); the
# second has no space, so only a break inside it can keep it on the screen.
NAMES = [
    "Annabella Maximiliana von Wolkenstein-Ro",
    "Bartholomäus-Hieronymus-Kleinschmidt-Süd",
    "Carlotta Friederike Auguste Pfefferkorn",
    "Dorothea Wilhelmine Kunigunde Rautenstra",
]

# Every element whose text the page clips: a box that hides what overflows it (overflow
# hidden or clip, an ellipsis) while its content is wider or taller than the box, or text
# that runs past the window's right edge.
CUT_OFF = """
() => {
  const cut = [];
  const right = document.documentElement.clientWidth;
  for (const node of document.querySelectorAll("main *")) {
    if (!node.textContent.trim() || node.closest(".visually-hidden, [hidden]")) continue;
    const style = getComputedStyle(node);
    if (style.display === "none" || style.visibility === "hidden") continue;
    const clips = ["hidden", "clip"].includes(style.overflowX) || style.textOverflow === "ellipsis";
    if (clips && node.scrollWidth > node.clientWidth + 1) {
      cut.push(`${node.tagName}.${node.className}: ${node.textContent.trim().slice(0, 60)}`);
    }
    for (const child of node.childNodes) {
      if (child.nodeType !== Node.TEXT_NODE || !child.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(child);
      const text = child.textContent.trim().slice(0, 60);
      for (const box of range.getClientRects()) {
        if (box.right > right + 1) cut.push(`text past the edge: ${text}`);
      }
    }
  }
  return cut;
}
"""

# Where the text of ``node`` wraps: for each line after the first, the character before
# the break and the one after it.
LINE_BREAKS = """
(node) => {
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  const breaks = [];
  let last = null;
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    for (let i = 0; i < text.length; i++) {
      const range = document.createRange();
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      // A character at a line's start may also report a collapsed box at the end of the
      // line before: its own box is the last with a width.
      const box = [...range.getClientRects()].filter((rect) => rect.width > 0).pop();
      if (!box) continue;
      if (last && box.top > last.top + last.height / 2) {
        breaks.push([last.character, text.data[i]]);
      }
      last = {top: box.top, height: box.height, character: text.data[i]};
    }
  }
  return breaks;
}
"""


@pytest.fixture
def long_named_game(site) -> Game:
    """A running Piratz game of four long names, each holding treasures: Carlotta resigned
    (a bot plays on), a bot stands in for Dorothea; Annabella looks at it."""
    people = [
        make_user(f"{first}@example.com", display_name=name)
        for first, name in zip(["annabella", "bart", "carlotta", "dorothea"], NAMES, strict=True)
    ]
    game = start_game(people, seed=4)
    # Everyone holds treasures: the score card's tally names them all.
    game = flows.play_on_server(game, people, until=lambda g: all(g.load_state().collected))
    game = actions.do_resign(game.id, people[2], game.version)
    moderator = make_user("mod@example.com", is_staff=True)
    actions.do_replace_with_bot(game.id, moderator, 3, reason="Away for weeks")
    game.refresh_from_db()
    return game


def signed_in(visitor: Visitor, email: str) -> None:
    """A full session for ``email`` in the visitor's browser, without the login emails."""
    client = Client()
    client.force_login(User.objects.get(email=email))
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    visitor.context.add_cookies(
        [{"name": cookie.key, "value": cookie.value, "url": visitor.site.url}]
    )


def assert_fits(visitor: Visitor, what: str) -> None:
    visitor.assert_no_horizontal_scroll()
    cut = visitor.page.evaluate(CUT_OFF)
    assert not cut, f"{visitor.name}: text cut off on {what}: {cut}"


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
@pytest.mark.parametrize("viewport", [DESKTOP_800, PHONE], ids=["desktop", "phone"])
def test_long_names_fit_the_table_and_my_games(site, visitors, long_named_game, locale, viewport):
    game = long_named_game
    anna = visitors("Annabella", viewport=viewport, locale=locale)
    anna.scanners.append(HiddenInformationScan(game.id, 0))
    signed_in(anna, "annabella@example.com")
    anna.open(f"/games/{game.id}/")
    anna.check_accessibility(force=True)  # these names, whatever table was checked before
    players = anna.page.locator(".board__players").inner_text()
    # Short labels; what they mean, once, in the legend below the names.
    resigned, bot = ("aufgegeben", "Bot") if locale == "de-DE" else ("resigned", "bot")
    assert f"{NAMES[2]} · {resigned}" in players and f"{NAMES[3]} · {bot}" in players
    assert "(resigned; a careful bot plays on)" not in anna.page.inner_text("main")
    legend = anna.page.locator("[data-seat-legend]").inner_text()
    assert NAMES[2] in legend and NAMES[3] in legend
    assert anna.page.title().count(NAMES[2]) == 1  # the title names each seat once, short
    assert_fits(anna, "the table")
    anna.open("/games/")
    assert_fits(anna, "My games")


def test_wertkloetzchen_breaks_only_at_its_hyphen_on_the_score_card(
    site, visitors, long_named_game
):
    game = long_named_game
    anna = visitors("Annabella", viewport=DESKTOP_800, locale="de-DE")
    signed_in(anna, "annabella@example.com")
    anna.open(f"/games/{game.id}/")
    header = anna.page.locator("[data-score-card] thead th:nth-child(2)")  # the cubes' column
    assert header.text_content() == "Wert\u00adklötzchen"
    # A break inside the word is after "Wert", shown with a hyphen (the soft hyphen, U+00AD).
    breaks = header.evaluate(LINE_BREAKS)
    assert all(before == "\u00ad" for before, _after in breaks), breaks
