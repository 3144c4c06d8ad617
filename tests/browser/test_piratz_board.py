"""The Piratz table as a board (issue 24): a running game's play area fits one screen at
1280 x 800 (English and German), the row and the moves the first screen of a 390 x 844
phone; the player passes by clicking the cards; a rat alert is a focused red banner; the
light is on the seat to move, in the light and the dark theme (issue 34); a live update's
reveal and pass are animated unless the reader asks for reduced motion. Every page is
checked as conftest.Visitor says (console, CSP, axe, hidden information)."""

import pytest

from games.kinds.piratz import rules as piratz
from games.models import Game
from tests.browser import flows
from tests.browser.conftest import PHONE, SCREENSHOTS, Visitor
from tests.browser.hidden import HiddenInformationScan
from tests.factories import make_user, start_game

pytestmark = pytest.mark.browser

DESKTOP_800 = {"width": 1280, "height": 800}
# Seed 4, 3 players, played by flows.play_on_server's policy: at move 73 it is Anna's
# round-2 decision with three cards face up, two buried, and 5, 4 and 2 cards collected.
MID_ROUND_SEED = 4
# Seed 4, 2 players: Anna reveals a rat and ends her turn; Bert's reveal is the second rat.
RAT_ALERT_SEED = 4
# What must be on the first screen of a running game's table, desktop.
PLAY_AREA = {
    "status": ".table-status",
    "face-up row": "[data-face-up]",
    "moves": "[data-moves]",
    "score card": "[data-score-card]",
    "players": ".board__players",
}


def _mid_round(state) -> bool:
    return (
        state.round >= 2
        and state.current == 0
        and state.phase == "decide"
        and 3 <= len(state.face_up) <= 4
        and bool(state.buried)
        and all(state.collected)
    )


@pytest.fixture
def players():
    return [
        make_user("anna@example.com", display_name="Anna"),
        make_user("bert@example.com", display_name="Bert"),
        make_user("carla@example.com", display_name="Carla"),
    ]


@pytest.fixture
def mid_round_game(site, players) -> Game:
    game = start_game(players, seed=MID_ROUND_SEED)
    game = flows.play_on_server(game, players, until=lambda g: _mid_round(g.load_state()))
    assert game.is_active and _mid_round(game.load_state())
    return game


def open_table(visitor: Visitor, email: str, game: Game, seat: int) -> None:
    visitor.scanners.append(HiddenInformationScan(game.id, seat))
    flows.enter_game(visitor, email, game.id)


def first_screen(visitor: Visitor, name: str) -> None:
    """What the first screen shows, as ``var/screenshots/<name>.png`` (the README's
    docs/screenshots/table-en-desktop.png and table-en-phone.png are copies)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    visitor.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def bottom_of(visitor: Visitor, selector: str) -> float:
    box = visitor.page.locator(selector).first.bounding_box()
    assert box, f"{visitor.name}: {selector} is not shown"
    return box["y"] + box["height"]


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_a_running_game_fits_one_desktop_screen(site, visitors, mid_round_game, locale):
    anna = visitors("Anna", viewport=DESKTOP_800, locale=locale)
    open_table(anna, "anna@example.com", mid_round_game, 0)
    first_screen(anna, f"table-{locale[:2]}-desktop")
    assert flows.offered_actions(anna) == {"pass", "end_turn"}
    for name, selector in PLAY_AREA.items():
        bottom = bottom_of(anna, selector)
        assert bottom <= DESKTOP_800["height"], f"{locale}: the {name} ends at {bottom} px"
    anna.assert_no_horizontal_scroll()


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_the_row_and_the_moves_come_first_on_a_phone(site, visitors, mid_round_game, locale):
    anna = visitors("Anna", viewport=PHONE, locale=locale)
    open_table(anna, "anna@example.com", mid_round_game, 0)
    first_screen(anna, f"table-{locale[:2]}-phone")
    for name in ("status", "face-up row", "moves"):
        bottom = bottom_of(anna, PLAY_AREA[name])
        assert bottom <= PHONE["height"], f"{locale}: the {name} ends at {bottom} px"
    # The rest follows below them: the score card, then the players.
    assert bottom_of(anna, "[data-moves]") <= bottom_of(anna, "[data-score-card]")
    assert bottom_of(anna, "[data-score-card]") <= bottom_of(anna, ".board__players")
    anna.assert_no_horizontal_scroll()


def test_a_pass_is_played_by_clicking_a_treasure_then_the_card_to_bury(
    site, visitors, mid_round_game
):
    game = mid_round_game
    anna = visitors("Anna", viewport=DESKTOP_800)
    open_table(anna, "anna@example.com", game, 0)
    row = piratz.view(game.load_state(), 0)["face_up"]
    # A treasure that leaves a card to bury, clicked on a card showing another one too.
    card, treasure = next(
        (card, treasure)
        for card in row
        for treasure in card["treasures"]
        if len(card["treasures"]) > 1 and not all(c["treasures"].get(treasure) for c in row)
    )
    page = anna.page
    symbol = f'[data-face-up] svg[data-card="{card["id"]}"] use[data-treasure="{treasure}"]'
    page.locator(symbol).first.click()
    bar = page.locator("[data-act-bar]")
    assert bar.is_visible()
    taken = page.locator("[data-face-up] .row-card--taken svg").evaluate_all(
        "nodes => nodes.map(n => Number(n.dataset.card))"
    )
    assert taken == [c["id"] for c in row if c["treasures"].get(treasure)]
    pickable = page.locator("[data-face-up] .row-card--pickable")
    assert pickable.count() == len(row) - len(taken)
    # The last one: not the form's first option, which a form sent unchanged would bury.
    bury = int(pickable.last.locator("svg").get_attribute("data-card"))
    pickable.last.click()
    assert page.locator("[data-face-up] .row-card--chosen").get_attribute("aria-pressed") == "true"
    assert f"(#{bury})" in bar.locator("[data-act-text]").inner_text()
    anna.click(bar.locator("[data-act-confirm]"))
    game.refresh_from_db()
    assert game.moves.last().action == {"action": "pass", "treasure": treasure, "bury": bury}


def test_a_rat_alert_is_a_focused_banner_and_is_resolved_on_the_cards(site, visitors):
    anna_user = make_user("anna@example.com", display_name="Anna")
    bert_user = make_user("bert@example.com", display_name="Bert")
    game = start_game([anna_user, bert_user], seed=RAT_ALERT_SEED)
    for user, action in ((anna_user, "reveal"), (anna_user, "end_turn"), (bert_user, "reveal")):
        game = flows.actions.do_play_move(game.id, user, game.version, {"action": action})
    assert game.load_state().phase == "alarm"

    bert = visitors("Bert", viewport=PHONE)
    open_table(bert, "bert@example.com", game, 1)
    banner = bert.page.locator("[data-rat-alert]")
    assert banner.is_visible() and banner.get_attribute("role") == "alert"
    assert bert.page.evaluate("document.activeElement.id") == "rat-alert"
    assert "keep one and bury one card" in banner.inner_text()
    anna = visitors("Anna")
    open_table(anna, "anna@example.com", game, 0)
    assert anna.page.locator("[data-rat-alert]").is_visible()
    assert "Bert keeps one" in anna.page.locator("[data-rat-alert]").inner_text()

    # By keyboard: the rat to keep, then the card to bury, then the confirm button.
    rats = [c["id"] for c in piratz.view(game.load_state(), 1)["face_up"] if c["rat"]]
    page = bert.page
    page.locator(f'[data-face-up] .row-card:has(svg[data-card="{rats[0]}"])').focus()
    page.keyboard.press("Enter")
    pickable = page.locator("[data-face-up] .row-card--pickable")
    bury = int(pickable.first.locator("svg").get_attribute("data-card"))
    pickable.first.focus()
    page.keyboard.press(" ")
    confirm = page.locator("[data-act-confirm]")
    assert page.evaluate("document.activeElement.hasAttribute('data-act-confirm')")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    bert.check_page()
    assert confirm.count() == 0 or not confirm.is_visible()
    game.refresh_from_db()
    assert game.moves.last().action == {"action": "resolve_alarm", "keep": rats[0], "bury": bury}


# The turn light: the seat to move glows (a box-shadow), the others do not.
SEAT_LIGHTS = """nodes => nodes.map(n => [Number(n.dataset.seat), n.hasAttribute('data-turn-light'),
                                    getComputedStyle(n).boxShadow !== 'none'])"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_light_is_on_the_seat_to_move_in_either_theme(site, visitors, mid_round_game, scheme):
    anna = visitors("Anna", viewport=DESKTOP_800)
    anna.page.emulate_media(color_scheme=scheme)
    open_table(anna, "anna@example.com", mid_round_game, 0)
    anna.check_accessibility(force=True)  # the contrast of this theme's colours
    seats = anna.page.locator(".players [data-seat]").evaluate_all(SEAT_LIGHTS)
    to_move = mid_round_game.load_state().current
    assert seats == [[seat, seat == to_move, seat == to_move] for seat in range(3)], seats
    page_colour = anna.page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert (page_colour == "rgb(18, 22, 28)") == (scheme == "dark"), page_colour
    if scheme == "dark":
        first_screen(anna, "table-en-desktop-dark")


# A live update as static/js/table.js makes one: the row's first card passes to Anna's
# collection and a new card comes up in the row; then "table:updated".
LIVE_UPDATE = """() => {
  const row = document.querySelector('[data-place="row"]');
  const first = row.querySelector('li');
  const collection = document.querySelector('.players [data-seat="0"] [data-place="collection"]');
  const seat = document.querySelector('.players [data-seat="0"]');
  collection.append(first);
  seat.dataset.count = String(Number(seat.dataset.count) + 1);
  const revealed = first.cloneNode(true);
  revealed.querySelector('[data-card]').dataset.card = '999';
  row.append(revealed);
  document.dispatchEvent(new CustomEvent('table:updated', {detail: {before: 1, after: 2}}));
  return document.getAnimations().length;
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_reveal_and_a_pass_are_animated_unless_motion_is_reduced(
    site, visitors, mid_round_game, motion
):
    anna = visitors("Anna", viewport=DESKTOP_800)
    anna.page.emulate_media(reduced_motion=motion)
    open_table(anna, "anna@example.com", mid_round_game, 0)
    assert anna.page.evaluate("document.getAnimations().length") == 0  # first load: still
    animations = anna.page.evaluate(LIVE_UPDATE)
    ghosts = anna.page.locator(".motion-ghost").count()
    if motion == "reduce":
        assert (animations, ghosts) == (0, 0)
    else:
        # The new card arrives, the passed one flies to Anna's seat, whose stacks bump.
        assert animations >= 3 and ghosts == 1, (animations, ghosts)
        # The tests' (forced) clicks come once the cards have landed: one on its way in
        # covers what lies between the pile and the row (conftest.py LANDED).
        anna.assert_clickable(anna.page.locator("main a").first)
        assert anna.page.evaluate("document.getAnimations().length") == 0
        # The flying card is gone once it has landed.
        anna.page.locator(".motion-ghost").wait_for(state="detached", timeout=5_000)


# Every element.animate() call, by the card (data-card) or class it moved.
RECORD_ANIMATIONS = """() => {
  window.__animated = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    window.__animated.push(this.dataset.card || this.getAttribute('class'));
    return animate.apply(this, args);
  };
}"""


def test_a_card_revealed_at_another_seat_comes_onto_the_row_live(site, visitors):
    """End to end with the live table (static/js/table.js): Anna reveals; on Bert's open
    page, without a reload, the new card is animated onto the row."""
    anna_user = make_user("anna@example.com", display_name="Anna")
    bert_user = make_user("bert@example.com", display_name="Bert")
    game = start_game([anna_user, bert_user], seed=RAT_ALERT_SEED)
    bert = visitors("Bert", viewport=DESKTOP_800)
    open_table(bert, "bert@example.com", game, 1)
    bert.page.evaluate(RECORD_ANIMATIONS)
    game = flows.actions.do_play_move(game.id, anna_user, game.version, {"action": "reveal"})
    revealed = piratz.view(game.load_state(), 1)["face_up"][-1]["id"]
    bert.page.locator(f'[data-place="row"] [data-card="{revealed}"]').wait_for(timeout=5_000)
    assert str(revealed) in bert.page.evaluate("window.__animated")
