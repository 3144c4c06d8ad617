"""Ratings in a real browser: the player page's rating and history, its link to the
leaderboard, the leaderboard in English and German. Every page is checked as
conftest.Visitor says (console, CSP, axe)."""

import pytest

from ratings.models import PROVISIONAL_GAMES
from tests.browser import flows
from tests.factories import make_user
from tests.ratings.helpers import played

pytestmark = pytest.mark.browser


def test_from_a_players_rating_to_the_leaderboard(site, visitors):
    anna = make_user("anna@example.com", display_name="Anna")
    bert = make_user("bert@example.com", display_name="Bert")
    make_user("carla@example.com", display_name="Carla")
    for _ in range(PROVISIONAL_GAMES):
        played([anna, bert], [5, 3])
    carla = visitors("Carla")
    flows.sign_in(carla, "carla@example.com", start="/players/Anna/")

    ratings = carla.page.locator("#ratings")
    assert ratings.get_by_text("after 5 rated games").count()
    assert ratings.locator("tbody tr").count() == PROVISIONAL_GAMES
    carla.click(ratings.get_by_role("link", name="Leaderboard"))
    assert carla.page.url.endswith("/leaderboard/piratz/")
    rows = carla.page.locator("#leaderboard tbody tr")
    assert rows.count() == 2
    assert rows.nth(0).get_by_role("link").inner_text() == "Anna"
    flows.switch_language(carla, "de")
    assert carla.page.get_by_role("heading", name="Rangliste von Piratz").count()
    carla.click(carla.page.get_by_role("link", name="Rattenscharf"))
    assert carla.page.get_by_text("Noch niemand hat 5 gewertete Partien gespielt.").count()
