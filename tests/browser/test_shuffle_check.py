"""A shuffle anyone can check, in a real browser: the create form and the invitation page fill
the client seed from crypto.getRandomValues, the seeds reach the game, and after the end the
verification page says the game verifies. Every page is checked as conftest.Visitor says."""

import re

import pytest

from games.models import Game, GameStatus, Seat
from tests.browser import flows
from tests.browser.conftest import PHONE
from tests.browser.hidden import HiddenInformationScan
from tests.factories import make_user

pytestmark = pytest.mark.browser

RANDOM_SEED = re.compile(r"^[0-9a-f]{32}$")  # 128 bits from the browser, as hex


def test_browser_seeds_reach_the_game_and_the_finished_game_verifies(site, visitors):
    anna_user = make_user("anna@example.com", display_name="Anna")
    bert_user = make_user("bert@example.com", display_name="Bert")
    anna = visitors("Anna")
    flows.sign_in(anna, anna_user.email)
    anna.open("/games/")
    host_seed = anna.page.locator("input[data-client-seed]").input_value()
    assert RANDOM_SEED.match(host_seed)
    anna.page.get_by_label(re.compile(r"^Player 2\b")).fill(bert_user.email)
    anna.click("Create the game")
    game = Game.objects.get(seats__user=bert_user)
    assert Seat.objects.get(game=game, seat=0).client_seed == host_seed

    bert = visitors("Bert", viewport=PHONE)
    bert.scanners.append(HiddenInformationScan(game.id, 1))
    bert.open(site.link_in_last_email(bert_user.email, flows.INVITATION_LINK))
    field = bert.page.locator("input[data-client-seed]")
    assert RANDOM_SEED.match(field.input_value())  # filled while still folded away
    assert field.input_value() != host_seed
    # The commitment and the field are folded under "Checkable shuffle (optional)".
    assert not field.is_visible()
    bert.page.get_by_text("Checkable shuffle (optional)").click()  # opens, no navigation
    field.fill("bert-chose-this")
    assert bert.page.get_by_text(game.seed_commitment).count()
    bert.assert_no_horizontal_scroll()
    bert.click("Accept")
    game = Game.objects.get(id=game.id)
    assert game.status == GameStatus.ACTIVE
    assert Seat.objects.get(game=game, seat=1).client_seed == "bert-chose-this"

    game = flows.play_on_server(game, [anna_user, bert_user])
    assert game.status == GameStatus.FINISHED
    anna.open(f"/games/{game.id}/")
    anna.click(anna.page.get_by_role("link", name="Check the shuffle"))
    assert anna.page.get_by_text("Verified: this game was dealt as committed.").count()
    assert anna.page.get_by_text(game.server_seed).count()
