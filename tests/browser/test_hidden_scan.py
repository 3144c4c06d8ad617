"""The pages' hidden-information scan catches what it is for (no browser needed): a page
that showed the draw order, a card a blind player may not see, or the shuffle key."""

import pytest

from games import actions
from games.kinds.piratz import rules as piratz
from tests.browser.hidden import HiddenInformationScan, card_ids
from tests.factories import start_game

pytestmark = pytest.mark.django_db


def _page(*cards: int, version: int = 0) -> str:
    items = "".join(f'<li><svg role="img" aria-label="1 coin (#{c})"></svg></li>' for c in cards)
    return f'<main data-version="{version}"><ul>{items}</ul></main>'


def test_card_ids_are_read_from_words_drawings_and_move_forms():
    body = (
        '<p>1 coin, rat (#2)</p><svg data-card="17" aria-label="1 gem (#17)"><title>1 gem (#17)'
        '</title></svg><input type="radio" name="bury" value="5"><input value="9" name="keep">'
        '<select name="bury"><option value="3">2 rings (#3)</option><option value="4">x</option>'
        '</select><select name="hours"><option value="7">7</option></select>'
        '<p style="color:#333">Item #4 of &#8217;</p>'
    )
    assert card_ids(body) == [2, 17, 5, 9, 3, 4]


# Seed 3's draw pile starts 14, 3, 39, 32: not in increasing order, so judged (see
# HiddenInformationScan: an increasing top may be the unseen set listed by id).
UNSORTED_TOP = 3


def test_the_draw_order_in_a_page_is_caught(anna, bert):
    game = start_game([anna, bert], seed=UNSORTED_TOP)
    scan = HiddenInformationScan(game.id, seat=1)
    draw = piratz.dump(game.load_state())["draw"]
    scan("/games/x/", _page(*reversed(draw[:3])), "text/html")  # the same cards, not in order
    with pytest.raises(AssertionError, match="draw order"):
        scan("/games/x/", _page(*draw[:3]), "text/html")


def test_the_draw_order_written_any_way_is_caught(anna, bert):
    game = start_game([anna, bert], seed=UNSORTED_TOP)
    draw = piratz.dump(game.load_state())["draw"]
    leak = f"<!-- next: {', '.join(str(card) for card in draw[:4])} -->"
    with pytest.raises(AssertionError, match="draw order leaked as numbers"):
        HiddenInformationScan(game.id, seat=0)("/games/x/", _page() + leak, "text/html")


def test_the_unseen_set_listed_by_id_is_no_leak(anna, bert):
    """Seed 7's pile starts 2, 5, 20: late in a game, when these are the unseen cards
    left, the unseen set listed by id shows them in a row, and that is no leak."""
    game = start_game([anna, bert], seed=7)
    top = piratz.dump(game.load_state())["draw"][:3]
    assert top == sorted(top)
    HiddenInformationScan(game.id, seat=0)("/games/x/", _page(*top), "text/html")


def test_the_shuffle_key_in_a_page_is_caught(anna, bert):
    game = start_game([anna, bert])
    key = piratz.dump(game.load_state())["key"]
    with pytest.raises(AssertionError, match="shuffle key"):
        HiddenInformationScan(game.id, seat=0)("/games/x/", f"<p>{key}</p>", "text/html")


def test_a_blind_collection_in_a_page_is_caught_until_the_end(anna, bert):
    game = start_game([anna, bert], blind=True)
    game = actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
    [card] = piratz.view(game.load_state(), 0)["face_up"]
    treasure = next(iter(card["treasures"]))
    pass_ = {"action": "pass", "treasure": treasure, "bury": None}
    game = actions.do_play_move(game.id, anna, 1, pass_)
    game = actions.do_play_move(game.id, bert, 2, {"action": "reveal"})
    # Anna took the card and Bert has moved since: for Bert the entry is reduced (P23).
    scan = HiddenInformationScan(game.id, seat=1)
    current = piratz.view(game.load_state(), 1)["face_up"][-1]["id"]
    scan("/games/x/", _page(current, version=game.version), "text/html")
    with pytest.raises(AssertionError, match=rf"blind game shows cards \[{card['id']}\]"):
        scan("/games/x/", _page(card["id"], version=game.version), "text/html")


def test_a_body_is_judged_at_the_version_it_names(anna, bert):
    """A page read after a later move is judged by the game as it was rendered."""
    game = start_game([anna, bert], seed=UNSORTED_TOP, blind=True)
    scan = HiddenInformationScan(game.id, seat=1)
    scan.snapshot()  # version 0, as the page loop takes it after every page
    draw = piratz.dump(game.load_state())["draw"]
    game = actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
    with pytest.raises(AssertionError, match="draw order"):
        scan("/games/x/", _page(*draw[:3], version=0), "text/html")
