"""A player's private notes at the table in a real browser (issue 34): saved without the
page reloading, a draft typed but not saved still there after a reload, the other
player's table shows none of it, and a move arriving live takes nothing from the notes.
Every page is checked as conftest.Visitor says."""

import pytest

from games import actions
from games.models import GameNote
from tests.browser import flows
from tests.browser.conftest import SHOWS_VERSION
from tests.factories import make_user, start_game

pytestmark = pytest.mark.browser


def test_notes_save_in_place_and_a_draft_survives_a_reload(site, visitors):
    anna_user = make_user("anna@example.com", display_name="Anna")
    make_user("bert@example.com", display_name="Bert")
    game = start_game([anna_user, make_user("carla@example.com")], seed=4)
    anna = visitors("Anna")
    flows.sign_in(anna, "anna@example.com")
    anna.open(f"/games/{game.id}/")

    notes = anna.page.get_by_label("Only you see these notes", exact=False)
    notes.fill("Carla hoards <pearls>.")
    url_before = anna.page.url
    anna.page.get_by_role("button", name="Save", exact=True).click()
    status = anna.page.locator("#my-notes [data-notes-status]")
    status.filter(has_text="Your notes are saved.").wait_for()  # no navigation: in place
    assert anna.page.url == url_before
    assert GameNote.objects.get(user=anna_user).text == "Carla hoards <pearls>."

    # Typed on, not saved, and the page reloads (a move arriving reloads the table).
    notes.fill("Carla hoards <pearls>. Unsaved thought.")
    anna.reload()
    assert notes.input_value() == "Carla hoards <pearls>. Unsaved thought."
    assert status.inner_text() == "Not saved yet."
    assert GameNote.objects.get(user=anna_user).text == "Carla hoards <pearls>."

    carla = visitors("Carla")
    flows.sign_in(carla, "carla@example.com")
    carla.open(f"/games/{game.id}/")
    assert carla.page.get_by_label("Only you see these notes", exact=False).input_value() == ""
    assert "hoards" not in carla.page.content()


def test_a_move_arriving_while_typing_notes_updates_the_table_and_keeps_the_notes(site, visitors):
    """The notes sit beside the log, inside the live table: a move arriving swaps the table
    in place at once (nothing held back), and the panel is the reader's own element still,
    with its unsaved text, its focus and its caret."""
    anna_user = make_user("anna@example.com", display_name="Anna")
    carla_user = make_user("carla@example.com", display_name="Carla")
    game = start_game([anna_user, carla_user], seed=4)
    carla = visitors("Carla")
    flows.sign_in(carla, "carla@example.com")
    carla.open(f"/games/{game.id}/")
    # Beside the log: the log's next sibling, inside the region the live table swaps.
    assert carla.page.locator("#table-live-region .move-log + #my-notes").count() == 1

    notes = carla.page.get_by_label("Only you see these notes", exact=False)
    notes.click()
    notes.press_sequentially("Anna opens with")
    carla.page.evaluate("document.querySelector('#my-notes').dataset.mine = 'yes'")

    actions.do_play_move(game.id, anna_user, 0, {"action": "reveal"})
    carla.page.wait_for_function(SHOWS_VERSION, arg=["1", "active"])
    assert carla.page.evaluate("document.querySelector('#my-notes').dataset.mine") == "yes"
    assert notes.input_value() == "Anna opens with"
    assert carla.page.evaluate("document.activeElement.id") == "my-notes-text"
    notes.press_sequentially(" a reveal.")  # the caret stayed at the end
    assert notes.input_value() == "Anna opens with a reveal."
    assert carla.page.locator(".table-changed").is_hidden(), "the swap was held back"
    carla.check_page()
