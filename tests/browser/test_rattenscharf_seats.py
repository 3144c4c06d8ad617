"""Issue 34: Rattenscharf's seats look like Piratz's: each player's initial on an avatar
in their colour (red, green: the game's, so the avatar and the board agree), the same size
as a Piratz seat's, and the turn light on the seat to move, on desktop and phone."""

import pytest

from tests.browser.conftest import PHONE

from .test_rattenscharf_board import DESKTOP_800, a_game_some_moves_in, at_the_table

AVATARS = """nodes => nodes.map(n => {
  const avatar = n.querySelector('[data-seat-avatar]');
  const box = avatar.getBoundingClientRect();
  const body = n.querySelector('.rs-player__body').getBoundingClientRect();
  const style = getComputedStyle(avatar);
  return {seat: Number(n.dataset.seat), initial: avatar.textContent.trim(),
          colour: style.backgroundColor, size: [Math.round(box.width), Math.round(box.height)],
          light: n.hasAttribute('data-turn-light'), glows: getComputedStyle(n).boxShadow !== 'none',
          beside: box.right <= body.left};
})"""
# The seat colours of static/css/site.css: --seat-1 (red) and --seat-2 (green).
RED, GREEN = "rgb(180, 35, 24)", "rgb(8, 116, 67)"


@pytest.mark.parametrize(("viewport", "language"), [(DESKTOP_800, "en"), (PHONE, "de")])
def test_each_seat_has_its_initial_in_its_colour_and_the_light_on_the_one_to_move(
    site, visitors, viewport, language
):
    game, _users = a_game_some_moves_in()  # Anna (red, seat 0) to move
    anna = at_the_table(visitors, game, viewport=viewport, language=language)
    seats = anna.page.locator(".rs-players [data-seat]").evaluate_all(AVATARS)
    assert seats == [
        {
            "seat": 0,
            "initial": "A",
            "colour": RED,
            "size": [32, 32],
            "light": True,
            "glows": True,
            "beside": True,
        },
        {
            "seat": 1,
            "initial": "B",
            "colour": GREEN,
            "size": [32, 32],
            "light": False,
            "glows": False,
            "beside": True,
        },
    ], seats
    anna.assert_no_horizontal_scroll()
