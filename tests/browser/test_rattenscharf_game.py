"""A whole Rattenscharf game in two browsers (Anna on a desktop, Bert on a phone): created
with the form, accepted from the email, strips placed by clicking the board and by the
keyboard, a stale tab's list form refused with a message, the middle of the game played
elsewhere, the last turns clicked to the final table. Every page is checked as
conftest.Visitor says (console, axe) and scanned for the pile's order (R33)."""

import re

import pytest

from games import actions
from games.kinds.rattenscharf import rules as rs
from games.models import Game, GameStatus
from tests.browser import flows
from tests.browser.conftest import PHONE, Visitor
from tests.browser.hidden import PileOrderScan
from tests.factories import deal_from_seed

pytestmark = pytest.mark.browser

# Seed 1, played by R35's stand-in choice from both seats (and this test's one keyboard
# placement), ends complete after 42 placements, so the final scoring shows.
SEED = 1


def create_rattenscharf(visitor: Visitor, emails: list[str]) -> Game:
    """Choose Rattenscharf on the create form: only two players and no blind mode show."""
    visitor.open("/games/")
    form = visitor.page.locator("form[data-create-form]")
    form.locator("select[name=game]").select_option("rattenscharf")
    assert not form.get_by_label(re.compile(r"^Player 3\b")).is_visible()
    assert not form.get_by_label(re.compile("^Blind mode")).is_visible()
    for number, email in enumerate(emails, start=1):
        form.get_by_label(re.compile(rf"^Player {number}\b")).fill(email)
    visitor.click("Create the game")
    return Game.objects.filter(seats__user__email=emails[0]).latest("created_at")


def choose(visitor: Visitor, action: dict):
    """Set the board form to the action's strip, direction and turn; return its target."""
    form = visitor.page.locator("form[data-board-form]")
    visitor.choose(form.locator(f'input[name="rs-strip"][value="{action["strip"]}"]'))
    visitor.choose(form.locator(f'input[name="rs-orientation"][value="{action["orientation"]}"]'))
    form.locator('input[name="rs-flip"]').set_checked(action["flip"])
    key = f"{action['x']},{action['y']},{action['orientation']}"
    return visitor.page.locator(f'.rs-target[data-key="{key}"]')


def place_by_clicks(visitor: Visitor, action: dict, *, confirm_button: bool = False) -> None:
    """Click the place on the board (it is chosen and previewed), then click it again or
    the "Place the strip" button: one move."""
    target = choose(visitor, action)
    assert target.count() == 1, f"{visitor.name}: {action} is not offered on the board"
    if target.get_attribute("aria-pressed") != "true":  # else chosen already (the nearest)
        target.click()
    assert target.get_attribute("aria-pressed") == "true"
    preview = visitor.page.locator("[data-preview]").inner_text()
    assert "Points: red" in preview, preview
    if confirm_button:
        visitor.click(visitor.page.get_by_role("button", name="Place the strip"))
    else:
        visitor.click(target)


def version_of(visitor: Visitor) -> int:
    return flows.table_version(visitor)


def catch_up(visitor: Visitor, game: Game) -> None:
    if version_of(visitor) != game.version:
        visitor.live_refresh()
    assert version_of(visitor) == game.version


def offers_no_move(visitor: Visitor) -> bool:
    return not visitor.page.locator("form[data-action]").count()


def check_phone_board(visitor: Visitor) -> None:
    """On a phone the page never scrolls sideways; the board pans inside its frame and
    zooms with its buttons."""
    visitor.assert_no_horizontal_scroll()
    viewport = visitor.page.locator("[data-board-viewport]")
    svg = visitor.page.locator(".rs-svg")
    before = svg.bounding_box()["width"]
    # Its normal width, from data-columns (no style attribute): the frame's width, or
    # 1.5rem a column (still readable) where that is wider and the board pans.
    columns = int(visitor.page.locator(".rs-board").get_attribute("data-columns"))
    frame = viewport.evaluate("v => v.clientWidth")
    assert columns * 24 - 1 <= before <= max(columns * 24, frame) + 1, (columns, frame, before)
    zoom_in = visitor.page.get_by_role("button", name="Zoom in")
    zoom_in.click()
    zoom_in.click()
    after = svg.bounding_box()["width"]
    assert after > before * 1.4, (before, after)
    wide, shown = viewport.evaluate("v => [v.scrollWidth, v.clientWidth]")
    assert wide > shown, "the zoomed board pans inside its frame"
    moved = viewport.evaluate("v => { v.scrollLeft = 120; return v.scrollLeft; }")
    assert moved > 0
    # pan-x pan-y pinch-zoom: touch pans and pinches the frame (Chromium says "manipulation").
    touch = viewport.evaluate("v => getComputedStyle(v).touchAction")
    assert touch in ("manipulation", "pan-x pan-y pinch-zoom"), touch
    visitor.assert_no_horizontal_scroll()
    visitor.page.get_by_role("button", name="Zoom out").click()
    visitor.page.get_by_role("button", name="Zoom out").click()


def test_two_people_play_a_whole_rattenscharf_game(site, visitors):
    anna = visitors("Anna")
    flows.sign_in(anna, "anna@example.com")
    game = create_rattenscharf(anna, ["anna@example.com", "bert@example.com"])
    assert game.game == "rattenscharf"
    bert = visitors("Bert", viewport=PHONE)
    flows.accept_invitation(bert, "bert@example.com")
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    deal_from_seed(game, SEED)  # a known deal
    users = {seat.seat: seat.user for seat in game.seats.all()}

    seats = {0: anna, 1: bert}
    for visitor in seats.values():
        visitor.scanners.append(PileOrderScan(game.id))
        flows.enter_game(visitor, f"{visitor.name.lower()}@example.com", game.id)
        assert visitor.page.locator("h1").inner_text() == "Rattenscharf with anna, bert"
    assert offers_no_move(bert)
    check_phone_board(bert)

    # Turn 1, Anna: a click chooses the place (previewed), a second click places it.
    place_by_clicks(anna, rs.timeout_action(game.load_state()))
    game.refresh_from_db()
    assert game.version == 1 and game.current_seat == 1
    anna.screenshot("rattenscharf-en-desktop-turn1")

    # Turn 2, Bert on his phone: one strip by clicks and the button, one by the keyboard.
    catch_up(bert, game)
    place_by_clicks(bert, rs.timeout_action(game.load_state()), confirm_button=True)
    game.refresh_from_db()
    assert game.version == 2
    bert.screenshot("rattenscharf-en-phone")
    start = rs.timeout_action(game.load_state())
    target = choose(bert, start)
    target.focus()
    chosen_before = bert.page.locator("form[data-board-form]").get_attribute("data-chosen")
    # Two quarter turns (R, R) give the same direction turned round; then two steps.
    for key in ("r", "r", "ArrowRight", "ArrowDown"):
        bert.page.keyboard.press(key)
    chosen = bert.page.locator("form[data-board-form]").get_attribute("data-chosen")
    half_turned = f",{start['orientation']},{0 if start['flip'] else 1}"
    assert chosen and chosen != chosen_before and chosen.endswith(half_turned), chosen
    bert.press("Enter")
    game.refresh_from_db()
    assert game.version == 3 and game.current_seat == 0
    x, y, orientation, flip = chosen.split(",")
    assert game.moves.get(number=3).action == {
        "action": "place",
        "strip": game.moves.get(number=3).action["strip"],
        "x": int(x),
        "y": int(y),
        "orientation": orientation,
        "flip": flip == "1",
    }

    # Turn 3, Anna: a second tab of hers shows version 3 when she places a strip in the
    # first; the old tab's list form is then refused with a message, on the current table.
    catch_up(anna, game)
    stale = anna.second_tab()
    # A tab whose live stream is gone (a laptop woken from sleep): it shows version 3 until
    # asked, whatever the other tab does (its version poll is held, as in every test).
    stale.page.route("**/games/*/events", lambda route: route.fulfill(status=204))
    stale.open(f"/games/{game.id}/")
    place_by_clicks(anna, rs.timeout_action(game.load_state()))
    stale.page.locator("details[data-lists] summary").click()
    stale.click(stale.page.locator("details[data-lists] form[data-action] button").first)
    assert stale.page.get_by_role("alert").count(), "a stale move says why it was refused"
    assert version_of(stale) == 4
    # Her second strip from a list form (what the page offers without its script).
    game.refresh_from_db()
    wanted = rs.timeout_action(game.load_state())
    anna.page.locator("details[data-lists] summary").click()
    listed = anna.page.locator(
        f"details[data-lists] form:has(input[name=strip][value='{wanted['strip']}'])"
    )
    listed.locator("select").select_option(
        f"{wanted['x']},{wanted['y']},{wanted['orientation']},{int(wanted['flip'])}"
    )
    anna.click(listed.locator("button"))
    game.refresh_from_db()
    assert game.version == 5 and game.current_seat == 1

    # The middle of the game is played elsewhere (their other devices, the API).
    while game.is_active and game.load_state().turn < 20:
        state = game.load_state()
        seat = rs.current_seat(state)
        game = actions.do_play_move(game.id, users[seat], game.version, rs.timeout_action(state))

    # The last turns by clicks, each page seeing the other's moves arrive.
    shot = False
    while game.is_active:
        mover = seats[game.current_seat]
        catch_up(mover, game)
        other = seats[1 - game.current_seat]
        if version_of(other) == game.version:
            assert offers_no_move(other)
        if not shot:  # a late table, from the seat of the player waiting
            catch_up(anna, game)
            anna.screenshot("rattenscharf-en-desktop")
            shot = True
        place_by_clicks(mover, rs.timeout_action(game.load_state()))
        game.refresh_from_db()
        if mover.page.viewport_size == PHONE:
            mover.assert_no_horizontal_scroll()

    assert game.status == GameStatus.FINISHED
    assert rs.view(game.load_state(), None)["result"]["reason"] == "complete"
    assert game.version == 42
    for visitor in seats.values():
        visitor.open(f"/games/{game.id}/")
        assert offers_no_move(visitor)
        assert visitor.page.get_by_role("heading", name="Final scores").count()
        assert visitor.scanners[0].scanned > 0, "the pile scan never ran"
    anna.screenshot("rattenscharf-final-en-desktop")
    bert.screenshot("rattenscharf-final-en-phone")
    bert.assert_no_horizontal_scroll()
    anna.open("/games/")
    assert anna.page.get_by_text("Rattenscharf with anna, bert").count()
