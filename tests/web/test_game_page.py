"""The signed game link of the emails, and the read-only game page it opens.

The link and the page's access are the platform's: they are shown on the toy game
(``toy_table``); the Piratz table's own words on Piratz.
"""

from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import NotificationSettings
from games import actions
from games.catalogue import kinds
from games.kinds.piratz import rules as piratz
from games.notify import links
from tests.factories import start_game, start_toy_game

pytestmark = pytest.mark.django_db


def path_of(url: str) -> str:
    return url.removeprefix("http://127.0.0.1:8000")


@pytest.fixture(autouse=True)
def _site_url(settings):
    settings.SITE_URL = "http://127.0.0.1:8000"


@pytest.fixture
def toy_table(toy_games, anna, bert, carla):
    """A running tic-tac-toe of Anna (to move), Bert and carla."""
    return start_toy_game([anna, bert, carla])


@pytest.fixture
def entry(toy_table, bert) -> str:
    """The path of Bert's signed link to the game."""
    url = links.game_entry_url(toy_table, bert)
    assert url.startswith(f"http://127.0.0.1:8000/games/{toy_table.id}/enter/")
    return path_of(url)


def test_opening_the_link_changes_nothing(entry, bert):
    client = Client()
    for response in (client.get(entry), client.head(entry)):
        assert response.status_code == 200
        assert "_auth_user_id" not in client.session  # no session from a GET or HEAD
    page = client.get(entry).content.decode()
    assert "Open the game" in page and 'method="post"' in page
    assert "Anna, carla" in page


def test_the_button_signs_in_and_opens_the_game(entry, toy_table, bert):
    game = toy_table
    client = Client(enforce_csrf_checks=True)
    page = client.get(entry)
    token = page.cookies["csrftoken"].value
    response = client.post(entry, {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert response["Location"] == reverse("games:game", args=[game.id])
    assert client.session["_auth_user_id"] == str(bert.pk)
    assert client.get(response["Location"]).status_code == 200


def test_the_post_needs_the_pages_csrf_token(entry):
    client = Client(enforce_csrf_checks=True)
    assert client.post(entry).status_code == 403
    assert "_auth_user_id" not in client.session


def test_a_tampered_link_is_refused(entry, toy_table, bert, outsider):
    game = toy_table
    token = entry.split("/")[-2]
    tampered = entry.replace(token, token[:-2] + ("AA" if token[-2:] != "AA" else "BB"))
    # Bert plays there too, but his link names the first game only.
    other_game = start_toy_game([outsider, bert])
    wrong_game = entry.replace(str(game.id), str(other_game.id))
    for path in (tampered, wrong_game):
        client = Client()
        assert client.get(path).status_code == 404
        assert client.post(path).status_code == 404
        assert "_auth_user_id" not in client.session


def test_the_link_stops_working_when_the_game_has_ended(entry, toy_table, bert, moderator):
    game = toy_table
    actions.do_abort_game(game.id, moderator, reason="test")
    client = Client()
    response = client.post(entry)
    assert response.status_code == 410
    assert "_auth_user_id" not in client.session
    page = client.get(entry).content.decode()
    assert "This game has ended" in page
    assert f'href="/games/{game.id}/"' in page
    # And the emails of an ended game link to the plain page, which asks to sign in.
    game.refresh_from_db()
    assert path_of(links.game_entry_url(game, bert)) == f"/games/{game.id}/"


def test_an_inactive_account_cannot_use_its_link(entry, bert):
    bert.is_active = False
    bert.save()
    client = Client()
    assert client.post(entry).status_code == 410
    assert "_auth_user_id" not in client.session


# --- The game page -------------------------------------------------------------------------


def test_game_page_shows_the_table_as_the_players_view_gives_it(game, anna, bert):
    game = actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
    client = Client()
    client.force_login(bert)
    response = client.get(reverse("games:game", args=[game.id]))
    assert response.status_code == 200
    page = response.content.decode()
    view = piratz.view(game.load_state(), 1)
    [card] = view["face_up"]
    assert 'role="img" aria-label="1 coin, rat (#2)" data-card="2"' in page
    assert f"{view['draw_pile']} cards" in page
    assert "It is <strong>Anna</strong>'s turn, deciding whether" in page
    assert "Anna revealed 1 coin, rat (#2)." in page
    assert "Bert (you)" in page
    assert card["id"] == 2


def test_blind_game_page_shows_counts_only(anna, bert):
    game = start_game([anna, bert], blind=True)
    game = actions.do_play_move(game.id, anna, 0, {"action": "reveal"})
    view = piratz.view(game.load_state(), 0)
    treasure = next(iter(view["face_up"][0]["treasures"]))
    game = actions.do_play_move(
        game.id, anna, 1, {"action": "pass", "treasure": treasure, "bury": None}
    )
    client = Client()
    client.force_login(anna)
    page = client.get(reverse("games:game", args=[game.id])).content.decode()
    assert "Anna (you)" in page and "Spade placed." in page and "1 card collected." in page
    assert "Blind mode: only the counts show until the end." in page


def test_staff_see_the_game_as_spectators(toy_table, moderator):
    client = Client()
    client.force_login(moderator)
    response = client.get(reverse("games:game", args=[toy_table.id]))
    assert response.status_code == 200
    assert "(you)" not in response.content.decode()


def test_outsiders_get_404_and_anonymous_visitors_the_login_page(toy_table, outsider):
    url = reverse("games:game", args=[toy_table.id])
    client = Client()
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    response = Client().get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
    assert f"next={url}" in response["Location"]


def test_the_page_changes_nothing(toy_table, anna):
    client = Client()
    client.force_login(anna)
    url = reverse("games:game", args=[toy_table.id])
    assert client.post(url).status_code == 405
    toy_table.refresh_from_db()
    assert toy_table.version == 0


def test_the_deadline_is_shown_in_the_readers_time_zone(anna, bert, time_machine):
    # Piratz's table says when the turn ends (the generic table of the toy game does not).
    NotificationSettings.objects.create(user=bert, time_zone="Europe/Berlin")
    time_machine.move_to(datetime(2030, 11, 19, 9, 0, tzinfo=UTC), tick=False)
    game = start_game([anna, bert])
    client = Client()
    client.force_login(bert)
    page = client.get(reverse("games:game", args=[game.id])).content.decode()
    # 72 hours after Tuesday 09:00 UTC, read in Berlin.
    assert "the turn ends Friday 22 November, 10:00 CET" in page


@pytest.mark.parametrize("name", kinds())  # every game of GAME_PACKAGES
def test_an_ended_games_table_says_how_it_ended(name, anna, bert, moderator):
    """Every game's table words its end the same way (games/_game_ended.html)."""
    game = start_game([anna, bert], game=name)
    actions.do_abort_game(game.id, moderator, reason="test")
    client = Client()
    client.force_login(anna)
    body = client.get(f"/games/{game.id}/").content.decode()
    assert "This game was aborted: aborted by a moderator. The table stays as it ended." in body
    assert "The game is over." not in body
