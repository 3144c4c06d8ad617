"""The Rattenscharf table on one screen (issue 24): at 1280x800 the status, the board, the
controls and the players end within the first screen; at 390x844 the board and its
controls (strip, rotate, place) do; the chosen place is only outlined, its preview told
beside the board. English and German; every page is checked as conftest.Visitor says
(console, CSP, axe) and scanned for the pile's order (R33)."""

import pytest

from games import actions
from games.kinds.rattenscharf import rules as rs
from games.models import Game
from tests.browser import flows
from tests.browser.conftest import PHONE, SCREENSHOTS, Visitor
from tests.browser.hidden import PileOrderScan
from tests.factories import make_user, start_game

pytestmark = pytest.mark.browser

DESKTOP_800 = {"width": 1280, "height": 800}
# Seed 1 played by R35's stand-in choice to turn 13: a board of about 12 x 10 cells, some
# fields six strips high, and Anna (red) to move with two strips in her hand.
SEED, TURN = 1, 13


def a_game_some_moves_in() -> tuple[Game, list]:
    users = [
        make_user("anna@example.com", display_name="anna"),
        make_user("bert@example.com", display_name="bert"),
    ]
    game = start_game(users, game="rattenscharf", seed=SEED)
    while game.load_state().turn < TURN:
        state = game.load_state()
        seat = rs.current_seat(state)
        game = actions.do_play_move(game.id, users[seat], game.version, rs.timeout_action(state))
    assert game.current_seat == 0 and len(rs.view(game.load_state(), 0)["hand"]) == 2
    return game, users


def at_the_table(visitors, game: Game, *, viewport, language: str) -> Visitor:
    """Anna signed in at the game's table, in ``language`` (the page's switch)."""
    anna = visitors("Anna", viewport=viewport)
    anna.scanners.append(PileOrderScan(game.id))
    flows.sign_in(anna, "anna@example.com", start=f"/games/{game.id}/")
    if language != "en":
        flows.switch_language(anna, language)
    assert anna.page.locator("html").get_attribute("lang") == language
    assert anna.page.locator("form[data-board-form]").is_visible()
    return anna


def first_screen(visitor: Visitor, name: str) -> None:
    """The first screen only, as a reader sees it on opening the page:
    ``var/screenshots/<name>.png`` (the docs' screenshots are copies)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    visitor.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def bottom_of(visitor: Visitor, selector: str) -> float:
    box = visitor.page.locator(selector).first.bounding_box()
    assert box, f"{selector} is not shown"
    return box["y"] + box["height"]


def overlaps(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_play_area_fits_a_1280_by_800_screen(site, visitors, language):
    game, _users = a_game_some_moves_in()
    anna = at_the_table(visitors, game, viewport=DESKTOP_800, language=language)
    first_screen(anna, f"rattenscharf-board-{language}-desktop")
    assert anna.page.evaluate("window.scrollY") == 0
    for part in (
        ".rs-status [data-turn-line]",
        ".rs-players",
        "[data-board-viewport]",
        "form[data-board-form] .rs-strips",
        "form[data-board-form] [data-rotate]",
        "form[data-board-form] [data-place]",
        "form[data-board-form] [data-preview]",
    ):
        assert bottom_of(anna, part) <= DESKTOP_800["height"], part
    # The board beside the controls, not above them.
    board = anna.page.locator("[data-board-viewport]").bounding_box()
    controls = anna.page.locator("form[data-board-form]").bounding_box()
    assert board["x"] + board["width"] <= controls["x"]
    anna.assert_no_horizontal_scroll()


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_board_and_its_controls_fit_a_phone_screen(site, visitors, language):
    game, _users = a_game_some_moves_in()
    anna = at_the_table(visitors, game, viewport=PHONE, language=language)
    first_screen(anna, f"rattenscharf-board-{language}-phone")
    for part in (
        "[data-board-viewport]",
        "form[data-board-form] .rs-strips",
        "form[data-board-form] [data-rotate]",
        "form[data-board-form] [data-place]",
    ):
        assert bottom_of(anna, part) <= PHONE["height"], part
    # The board's frame is the page's width; the board pans inside it, never the page.
    frame = anna.page.locator("[data-board-viewport]").bounding_box()
    assert frame["x"] >= 0 and frame["x"] + frame["width"] <= PHONE["width"]
    anna.assert_no_horizontal_scroll()


def test_the_preview_outlines_the_place_and_tells_the_rest_beside_the_board(site, visitors):
    """The chosen place is an outline with no fill that takes no clicks, drawn over
    nothing; the strip as laid and the preview's words sit outside the board's frame."""
    game, _users = a_game_some_moves_in()
    for viewport in (DESKTOP_800, PHONE):
        anna = at_the_table(visitors, game, viewport=viewport, language="en")
        page = anna.page
        targets = page.locator(".rs-target")
        target = targets.nth(targets.count() // 2)
        target.click()
        assert target.get_attribute("aria-pressed") == "true"
        ghost = page.locator(".rs-ghost")
        assert ghost.count() == 1
        style = ghost.evaluate(
            "g => { const s = getComputedStyle(g.querySelector('rect'));"
            " return [s.fill, s.pointerEvents, g.querySelectorAll('use, image').length]; }"
        )
        assert style[0] == "none" and style[1] == "none" and style[2] == 0, style
        frame = page.locator("[data-board-viewport]").bounding_box()
        words = page.locator("[data-preview]")
        assert "Points: red" in words.inner_text()  # the preview's words, filled in
        assert not overlaps(words.bounding_box(), frame)
        laid = page.locator("[data-preview-laid]")
        assert laid.is_visible() and not overlaps(laid.bounding_box(), frame)
        assert laid.locator("use").count() == 3
