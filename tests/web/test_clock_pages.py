"""Game clocks on the pages and in the turn email: the create form's clock choice (no
script needed), the bank on the table and in the turn email, English and German."""

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from accounts.models import User
from games import actions
from games.invitation_links import invitation_token
from games.models import Game
from notifications.models import OutboundEmail
from tests.factories import start_game

pytestmark = pytest.mark.django_db

START = datetime(2026, 12, 7, 10, 0, tzinfo=UTC)  # a Monday, 11:00 in Berlin
BANK = {"kind": "bank", "bank_hours": 220, "increment_hours": 36, "cap_hours": 480}
ANNA_PASSES = {"action": "pass", "treasure": "rings", "bury": None}


@pytest.fixture(autouse=True)
def _clock(time_machine):
    time_machine.move_to(START, tick=False)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def create_form(**fields) -> dict:
    return {
        "form": "create",
        "player_1": "anna@example.com",
        "player_2": "zoe@example.com",
        "turn_hours": "72",
        **fields,
    }


def test_the_create_form_offers_the_clocks_without_a_script(anna):
    body = signed_in(anna).get("/games/").content.decode()
    for field in ("clock", "bank_hours", "increment_hours", "cap_hours", "daily_hour"):
        assert f'<label for="id_{field}"' in body
    assert '<option value="bank">' in body and '<option value="daily">' in body


def test_the_create_form_makes_a_time_bank_game(anna):
    fields = create_form(clock="bank", bank_hours="100", increment_hours="12", cap_hours="200")
    response = signed_in(anna).post("/games/", fields)
    game = Game.objects.get()
    assert response.status_code == 302
    assert (game.clock, game.bank_hours, game.increment_hours, game.cap_hours) == (
        "bank",
        100,
        12,
        200,
    )


def test_the_create_form_makes_a_daily_game_and_ignores_the_other_clocks_fields(anna):
    fields = create_form(clock="daily", daily_hour="7", bank_hours="3", cap_hours="1")
    signed_in(anna).post("/games/", fields)
    game = Game.objects.get()
    assert (game.clock, game.daily_hour, game.bank_hours) == ("daily", 7, None)


def test_the_create_form_says_why_a_clock_is_refused(anna):
    fields = create_form(clock="bank", bank_hours="300", cap_hours="200")
    response = signed_in(anna).post("/games/", fields)
    assert response.status_code == 400
    assert "must be at least its bank_hours" in response.content.decode()
    assert not Game.objects.exists()


def german(user: User) -> User:
    User.objects.filter(pk=user.pk).update(language="de")
    user.refresh_from_db()
    return user


def test_the_table_shows_the_bank_running_down_and_the_clock(anna, bert, time_machine):
    game = start_game([anna, bert], clock=BANK)
    time_machine.move_to(START + timedelta(hours=4), tick=False)
    body = signed_in(anna).get(f"/games/{game.id}/").content.decode()
    assert "Your bank: 9 days." in body  # 220 h less the 4 used
    assert "Bank: 9 days 4 hours." in body  # Bert's, not running
    assert "Time bank: 9 days 4 hours for each player to start" in body
    assert "hours per turn" not in body


def test_the_table_shows_the_bank_in_german(anna, bert, time_machine):
    game = start_game([german(anna), bert], clock=BANK)
    body = signed_in(anna).get(f"/games/{game.id}/", headers={"accept-language": "de"})
    assert "Dein Zeitkonto: 9 Tage 4 Stunden." in body.content.decode()


def test_the_rattenscharf_table_shows_the_bank(anna, bert):
    game = start_game([anna, bert], game="rattenscharf", clock=BANK, seed=None)
    body = signed_in(anna).get(f"/games/{game.id}/").content.decode()
    assert "Your bank: 9 days 4 hours." in body


def test_the_turn_email_shows_the_bank_the_turn_starts_with(anna, bert, time_machine):
    game = start_game([anna, german(bert)], clock=BANK)
    time_machine.move_to(START + timedelta(hours=20), tick=False)
    actions.do_play_move(game.id, anna, 0, ANNA_PASSES)
    mail = OutboundEmail.objects.filter(to=bert.email, template="your_turn").get().rendered()
    assert "Dein Zeitkonto: 9 Tage 4 Stunden." in mail.body_text
    assert "Dein Zeitkonto: 9 Tage 4 Stunden." in mail.body_html
    [anna_mail] = OutboundEmail.objects.filter(to=anna.email, template="your_turn")
    assert "Your bank: 9 days 4 hours." in anna_mail.rendered().body_text


def test_a_per_turn_games_email_and_table_show_no_bank(anna, bert):
    game = start_game([anna, bert])
    body = signed_in(anna).get(f"/games/{game.id}/").content.decode()
    assert "bank" not in body.lower().replace("data-bank", "")
    [mail] = OutboundEmail.objects.filter(to=anna.email, template="your_turn")
    assert "bank" not in mail.rendered().body_text


# --- The clock in words where a game is offered and starts ----------------------------------

DAILY = {"kind": "daily", "hour": 20}


def test_the_invitation_page_and_email_say_a_time_bank_in_words(anna, bert):
    game = actions.do_create_game(anna, [anna.email, german(bert).email], clock=BANK)
    seat = game.seats.get(user=bert)
    page = Client().get(f"/invitations/{invitation_token(game, seat)}/")
    body = page.content.decode()
    assert "Time bank: 9 days 4 hours for each player to start" in body
    assert "hours per turn" not in body
    mail = OutboundEmail.objects.get(to=bert.email, template="invitation").rendered()
    for text in (mail.body_text, mail.body_html):
        assert "Zeitkonto: 9 Tage 4 Stunden" in text
        assert "Stunden pro Zug" not in text and "Zeit pro Zug" not in text


def test_the_invitation_page_says_a_daily_deadline_in_german(anna, bert):
    game = actions.do_create_game(anna, [anna.email, bert.email], clock=DAILY)
    seat = game.seats.get(user=bert)
    page = Client().get(
        f"/invitations/{invitation_token(game, seat)}/", headers={"accept-language": "de"}
    )
    body = page.content.decode()
    assert "Jeder Zug endet um 20:00 Uhr (UTC)" in body
    assert "pro Zug" not in body


def test_the_game_started_email_says_the_daily_deadline(anna, bert):
    start_game([anna, german(bert)], clock=DAILY)
    for user, words in ((anna, "Every turn ends at 20:00 (UTC)"), (bert, "20:00 Uhr (UTC)")):
        mail = OutboundEmail.objects.get(to=user.email, template="game_started").rendered()
        for text in (mail.body_text, mail.body_html):
            assert words in text
            assert "Time per turn" not in text and "Zeit pro Zug" not in text


def test_a_per_turn_games_invitation_still_says_its_hours(anna, bert):
    game = actions.do_create_game(anna, [anna.email, bert.email])
    mail = OutboundEmail.objects.get(to=bert.email, template="invitation").rendered()
    assert "Time per turn: 72 hours" in mail.body_text
    token = invitation_token(game, game.seats.get(user=bert))
    assert "72 hours per turn" in Client().get(f"/invitations/{token}/").content.decode()
