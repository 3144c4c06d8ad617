"""Substitutes in a real browser (docs/players.md "Substitutes"): Anna hosts a game of three
whose third seat a stand-in bot plays for Carla, who is away. On a desktop Anna offers
that seat in the lobby from her table's host's chair; Dora, on a phone in German, finds it
under "Substitutes wanted", takes it with one click and lands at the table in Carla's
seat. An emailed offer's link page only shows the seat on GET and takes it on its button.
Every page is checked as conftest.Visitor says (console, CSP, axe) and scanned for the
game's hidden information."""

import pytest

from games.actions.substitutes import do_offer_seat
from games.actions.together import do_host_stand_in
from games.models import Game, Seat, SeatChange, SeatOffer
from tests.browser import flows
from tests.browser.conftest import PHONE, Visitor
from tests.browser.hidden import HiddenInformationScan
from tests.factories import make_user, start_game

pytestmark = pytest.mark.browser

DESKTOP_800 = {"width": 1280, "height": 800}
CARLAS_SEAT = 2  # shown as seat 3
OFFER_LINK = r"/substitute/[^/\s]+/"


def carla_away() -> Game:
    """Anna (host, to move), Bert and Carla at Piratz; Anna let a bot play Carla's seat
    through her host's chair (the bot has nothing to play before its turn)."""
    anna = make_user("anna@example.com", display_name="Anna")
    bert = make_user("bert@example.com", display_name="Bert")
    carla = make_user("carla@example.com", display_name="Carla")
    game = start_game([anna, bert, carla], seed=4)
    return do_host_stand_in(game.id, anna, CARLAS_SEAT)


def sign_in_any_language(visitor: Visitor, email: str, start: str) -> None:
    """``flows.sign_in`` by the form's fields, not its English words: for a German visitor."""
    visitor.open(start)
    visitor.page.locator("main input[type=email]").fill(email)
    visitor.click(visitor.page.locator("main form button[type=submit]"))
    visitor.open(visitor.site.link_in_last_email(email, flows.LOGIN_LINK))
    visitor.click(visitor.page.locator("main form button[type=submit]"))


def test_a_seat_offered_in_the_lobby_is_taken_over_on_a_phone(site, visitors):
    game = carla_away()
    dora = make_user("dora@example.com", display_name="Dora")

    # Anna offers Carla's seat in the lobby from her table's host's chair.
    host = visitors("Anna", viewport=DESKTOP_800)
    host.scanners.append(HiddenInformationScan(game.id, 0))
    flows.sign_in(host, "anna@example.com", start=f"/games/{game.id}/")
    chair = host.page.locator("[data-substitute-chair]")
    chair.locator("summary", has_text="Offer seat 3 (Carla) to a substitute").click()
    host.click(chair.get_by_role("button", name="Offer it in the lobby"))
    assert "The seat is offered in the lobby" in host.page.locator(".messages").inner_text()
    offer = SeatOffer.objects.get(game=game)
    assert (offer.seat, offer.in_lobby, offer.closed) == (CARLAS_SEAT, True, "")
    assert "Seat 3 (Carla) is offered in the lobby until" in chair.inner_text()
    assert chair.get_by_role("button", name="Withdraw the offer").count() == 1

    # Dora reads the lobby in German on a phone: the seat is wanted; one click takes it.
    substitute = visitors("Dora", viewport=PHONE, locale="de")
    substitute.scanners.append(HiddenInformationScan(game.id, CARLAS_SEAT))
    sign_in_any_language(substitute, "dora@example.com", "/lobby/")
    assert substitute.page.locator("html").get_attribute("lang") == "de"
    wanted = substitute.page.locator("[data-lobby-substitutes]")
    assert wanted.get_by_role("heading", name="Ersatz gesucht").count() == 1
    entry = wanted.locator(f'[data-seat-offer="{offer.pk}"]')
    assert "Piratz: Platz 3" in entry.inner_text()
    assert "Gastgeber: Anna" in entry.inner_text()
    substitute.assert_no_horizontal_scroll()
    substitute.click(entry.get_by_role("button", name="Platz 3 in Piratz übernehmen"))

    # At the table, in Carla's seat, which is Dora's from now on.
    assert substitute.page.url.endswith(f"/games/{game.id}/")
    assert "Der Platz gehört dir" in substitute.page.locator(".messages").inner_text()
    own = substitute.page.locator(f'.board__players [data-seat="{CARLAS_SEAT}"]')
    assert "Dora (du)" in own.inner_text()
    notes = substitute.page.locator("[data-substitutions]").inner_text()
    assert "Dora hat Platz 3 von Carla übernommen." in notes
    substitute.assert_no_horizontal_scroll()
    seat = Seat.objects.get(game=game, seat=CARLAS_SEAT)
    assert (seat.user, seat.bot) == (dora, "")
    offer.refresh_from_db()
    assert (offer.closed, offer.taken_by) == (SeatOffer.Closed.TAKEN, dora)
    assert [email.subject for email in site.emails_to("carla@example.com")][-1] == (
        "Dora has taken over your seat in Piratz"
    )
    assert substitute.scanners[0].scanned > 0, "the hidden-information scan never ran"

    # The lobby wants nobody now; Anna's table tells who plays the seat, and offers nothing.
    substitute.open("/lobby/")
    assert substitute.page.locator("[data-seat-offer]").count() == 0
    substitute.assert_no_horizontal_scroll()
    host.reload()
    assert (
        "Dora took over seat 3 from Carla."
        in host.page.locator("[data-substitutions]").inner_text()
    )
    assert host.page.locator("[data-substitute-chair]").count() == 0


def test_an_emailed_offer_shows_the_seat_and_its_button_takes_it(site, visitors):
    game = carla_away()
    erik = make_user("erik@example.com", display_name="Erik")
    anna = game.host
    do_offer_seat(game.id, anna, CARLAS_SEAT, email="erik@example.com")
    link = site.link_in_last_email("erik@example.com", OFFER_LINK)

    # Opening the link (as a mail scanner would) only shows the offer.
    visitor = visitors("Erik")
    visitor.scanners.append(HiddenInformationScan(game.id, CARLAS_SEAT))
    visitor.open(link)
    # Values first, then assert: a failed assert on a locator would print the page's
    # address, and this one carries the offer's token.
    main = visitor.page.locator("main")
    headings = main.get_by_role("heading", name="Anna offers you seat 3 in Piratz").count()
    shown = main.inner_text()
    assert headings == 1
    assert "Carla · bot (the seat offered)" in shown
    assert Seat.objects.get(game=game, seat=CARLAS_SEAT).user.email == "carla@example.com"
    assert SeatOffer.objects.get().closed == ""
    visitor.assert_no_horizontal_scroll()

    # Its button takes the seat over and opens the table, signed in for the game.
    visitor.click("Take the seat over")
    assert visitor.page.url.endswith(f"/games/{game.id}/")
    assert "The seat is yours" in visitor.page.locator(".messages").inner_text()
    own = visitor.page.locator(f'.board__players [data-seat="{CARLAS_SEAT}"]')
    assert "Erik (you)" in own.inner_text()
    assert Seat.objects.get(game=game, seat=CARLAS_SEAT).user == erik
    change = SeatChange.objects.get(game=game, kind=SeatChange.Kind.SUBSTITUTED)
    assert (change.actor_user, change.previous_user.email) == (erik, "carla@example.com")

    # The link again: taken, nothing to press.
    visitor.open(link)
    shown = visitor.page.locator("main").inner_text()
    buttons = visitor.page.get_by_role("button", name="Take the seat over").count()
    assert "This seat has been taken over." in shown
    assert buttons == 0
