"""The service's own sentences read right (issue 24): the brand never calls every game
Piratz, the host is told what happened when only bots were invited, and every page says
a moment in the reader's zone the way the table says its deadline."""

from datetime import UTC, datetime

import pytest
from django.test import Client

from accounts import preferences
from games import actions
from games.invitation_links import invitation_token
from games.models import Seat
from notifications.models import OutboundEmail
from piratz_site import settings
from tests.factories import start_game
from tests.web.test_replay import page, play

pytestmark = pytest.mark.django_db


def german(user) -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "de"
    return client


def test_a_rattenscharf_email_never_calls_the_game_piratz(anna, bert):
    start_game([anna, bert], game="rattenscharf")
    emails = [email.rendered() for email in OutboundEmail.objects.all()]
    assert emails
    bodies = [body for email in emails for body in (email.body_text, email.body_html)]
    assert not [body for body in bodies if "Piratz, played slowly" in body]
    assert [body for body in bodies if "Piratz by mail: board games, played slowly." in body]


def test_the_home_page_and_the_api_name_the_service_not_one_game(anna):
    client = Client()
    assert "<h1>Board games, played slowly</h1>" in client.get("/").content.decode()
    assert "Play Piratz" not in settings.SPECTACULAR_SETTINGS["DESCRIPTION"]
    assert "<h1>Brettspiele, in Ruhe gespielt</h1>" in german(anna).get("/").content.decode()


def test_a_game_of_host_and_bots_is_not_said_to_send_invitations(anna):
    client = Client()
    client.force_login(anna)
    fields = {"form": "create", "player_1": anna.email, "bot_2": "careful", "turn_hours": "72"}
    body = client.post("/games/", fields, follow=True).content.decode()
    assert "invitations are on their way" not in body
    assert "The game is created and has begun: the bots took their seats at once." in body
    body = german(anna).post("/games/", fields, follow=True).content.decode()
    assert "Das Spiel ist angelegt und hat begonnen: Die Bots haben sofort Platz genommen." in body


def test_a_game_with_people_invited_still_says_the_invitations_are_on_their_way(anna):
    client = Client()
    client.force_login(anna)
    fields = {"form": "create", "player_1": anna.email, "player_2": "zoe@example.com"}
    body = client.post("/games/", {**fields, "turn_hours": "72"}, follow=True).content.decode()
    assert "The game is created; the invitations are on their way." in body


def test_replay_and_home_say_moments_in_the_readers_zone_as_the_table_does(anna, bert):
    game = start_game([anna, bert], seed=5)
    play(game, 1, seed=5)
    game.moves.update(at=datetime(2026, 11, 26, 11, 1, tzinfo=UTC))
    preferences.do_update_settings(anna, {"time_zone": "Europe/Berlin"}, now=game.created_at)
    # After the settings: changing them may move the turn's deadline (turn_clock_changed).
    type(game).objects.filter(id=game.id).update(deadline=datetime(2026, 11, 27, 11, 1, tzinfo=UTC))
    client = Client()
    client.force_login(anna)
    body = page(client, game, 1)[1]
    assert "(played Thursday 26 November, 12:01 CET)" in body
    assert "a.m." not in body
    home = client.get("/").content.decode()
    assert "next deadline Friday 27 November, 12:01 CET" in home
    body = german(anna).get(f"/games/{game.id}/replay/?step=1").content.decode()
    assert "Donnerstag, 26. November, 12:01 CET" in body


@pytest.mark.parametrize(
    ("msgid", "awkward", "plain"),
    [
        (
            "Naming %(treasure)s takes %(cards)s card: %(items)s.",
            "zu nennen nimmt",
            "Nennst du %(treasure)s, nimmst du %(cards)s Karte: %(items)s.",
        ),
        # Where the commitment is still shown: the invitation page (the table links the
        # verification page instead since f01a0a8) and the invitation email.
        (
            "Shuffle commitment (SHA-256 of the server's secret seed, which is published "
            "when the game ends):",
            "Festlegung des Mischens",
            "Prüfwert der Mischung (SHA-256 des geheimen Startwerts des Servers, der nach "
            "dem Spielende veröffentlicht wird):",
        ),
        (
            "Shuffle commitment, to check the deal after the end: %(commitment)s",
            "Festlegung des Mischens",
            "Prüfwert der Mischung, um das Austeilen nach dem Ende zu prüfen: %(commitment)s",
        ),
    ],
)
def test_german_says_it_plainly(msgid, awkward, plain):
    from django.utils import translation

    with translation.override("de"):
        said = translation.ngettext(msgid, msgid, 1) if "%(cards)s" in msgid else None
        said = said or translation.gettext(msgid)
    assert awkward not in said
    assert said == plain


def test_the_invitation_page_says_the_commitment_plainly_in_german(anna, bert):
    game = actions.do_create_game(anna, [anna.email, bert.email])
    token = invitation_token(game, Seat.objects.get(game=game, user=bert))
    page = Client().get(f"/invitations/{token}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Prüfwert der Mischung (SHA-256" in page
    assert "Festlegung des Mischens" not in page


def test_the_home_page_introduces_every_game_of_the_catalogue(anna, settings):
    intro = Client().get("/").content.decode()
    assert "Push your luck with rats and treasure" not in intro  # Piratz alone
    assert (
        "Board games by email and in the browser, one move a day: Piratz (2 to 4 players) "
        "and Rattenscharf (2 players)." in intro
    )
    in_german = german(anna).get("/").content.decode()
    assert "ein Zug am Tag: Piratz (2 bis 4 Spieler) und Rattenscharf (2 Spieler)." in in_german
    # From the catalogue, not written into the page: one game offered, one game named.
    settings.GAME_PACKAGES = ["games.kinds.piratz"]
    assert "one move a day: Piratz (2 to 4 players). You get" in Client().get("/").content.decode()
