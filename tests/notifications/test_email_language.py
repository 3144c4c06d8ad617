"""Emails go out in the recipient's language, whatever language the request that caused them
speaks: their own setting, else (invitations, login links) the best guess at hand."""

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation

from accounts.models import NotificationSettings, User
from games import actions, sweeps
from games.kinds.piratz import rules as piratz
from games.models import Game, GameStatus
from games.notify import reminder
from games.notify.digest import queue_digest
from notifications.models import OutboundEmail
from notifications.outbox import render_email
from tests.factories import make_user, start_game
from tests.po_catalog import GERMAN_PO, english_left_in, read_po

pytestmark = pytest.mark.django_db

# Tuesday 19 November 2030, 09:00 UTC.
START = datetime(2030, 11, 19, 9, 0, tzinfo=UTC)
GERMAN_DAYS = ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag")
ENGLISH_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@pytest.fixture(autouse=True)
def _clock(time_machine):
    time_machine.move_to(START, tick=False)


@pytest.fixture(scope="module")
def catalog():
    return read_po(GERMAN_PO)


def german(user: User) -> User:
    User.objects.filter(pk=user.pk).update(language="de")
    user.refresh_from_db()
    return user


def mails_to(user: User, template: str | None = None) -> list[OutboundEmail]:
    rows = OutboundEmail.objects.filter(to=user.email).order_by("id")
    return [
        row.rendered() for row in (rows if template is None else rows.filter(template=template))
    ]


def play(game: Game, user, action: dict) -> Game:
    game = actions.do_play_move(game.id, user, game.version, action)
    game.refresh_from_db()
    return game


def assert_all_german(mail: OutboundEmail, catalog) -> None:
    mail = mail.rendered()
    for part in (mail.subject, mail.body_text, mail.body_html):
        assert english_left_in(part, catalog) == [], (mail.template, part)
    assert not any(day in mail.body_text for day in ENGLISH_DAYS), mail.body_text


def test_each_player_reads_the_game_emails_in_their_own_language(anna, bert, carla):
    german(anna)
    # The host is German, Bert never chose: his emails stay English.
    with translation.override("de"):
        game = start_game([anna, bert, carla])

    [anna_started] = mails_to(anna, "game_started")
    [bert_started] = mails_to(bert, "game_started")
    assert anna_started.subject == "Deine Partie Piratz mit Bert, carla hat begonnen"
    assert "Spieler in Zugreihenfolge: Anna, Bert, carla" in anna_started.body_text
    assert bert_started.subject == "Your game of Piratz with Anna, carla has started"
    assert "Players, in turn order: Anna, Bert, carla" in bert_started.body_text
    assert 'lang="de"' in anna_started.body_html and 'lang="en"' in bert_started.body_html

    [anna_turn] = mails_to(anna, "your_turn")
    assert anna_turn.subject == "Du bist am Zug in Piratz mit Bert, carla"
    assert any(day in anna_turn.body_text for day in GERMAN_DAYS)  # the deadline, localised
    assert game.status == GameStatus.ACTIVE


def test_a_whole_game_in_german_has_no_english_left(anna, bert, catalog, time_machine):
    german(anna), german(bert)
    NotificationSettings.objects.create(user=bert, mode="digest")  # for the digest email
    game = start_game([anna, bert])
    # A reminder and an automatic move (P24) on the way, then play to the end.
    reminder.queue_reminder(game, game.current_seat, game.deadline)
    game = play(game, anna, {"action": "reveal"})
    time_machine.move_to(game.deadline + timedelta(minutes=1), tick=False)
    assert sweeps.play_due_timeouts() == 1
    game.refresh_from_db()
    queue_digest(bert, [game])  # Bert is to move now
    while game.status == GameStatus.ACTIVE:
        state = game.load_state()
        seat = game.current_seat
        reveal = {"action": "reveal"}
        legal = piratz.legal_actions(state, seat)
        action = reveal if state.phase == "turn" and reveal in legal else None
        game = play(game, [anna, bert][seat], action or piratz.timeout_action(state))

    templates = set(OutboundEmail.objects.values_list("template", flat=True))
    assert {
        "your_turn",
        "reminder",
        "auto_moved",
        "digest",
        "game_started",
        "game_over",
    } <= templates
    for mail in OutboundEmail.objects.exclude(template="invitation"):
        assert_all_german(mail, catalog)
    [over] = mails_to(anna, "game_over")
    assert over.subject.startswith("Spielende: ")


def test_invitation_to_a_new_address_is_in_the_hosts_language(anna, catalog):
    german(anna)
    kept_english = make_user("erik@example.com", language="en")
    actions.do_create_game(anna, [anna.email, "nina@example.com", kept_english.email])

    [nina] = OutboundEmail.objects.filter(to="nina@example.com", template="invitation")
    assert nina.rendered().subject == "Anna lädt dich zu einer Partie Piratz ein"
    assert_all_german(nina, catalog)
    # Erik chose English: his own setting beats the host's.
    [erik] = mails_to(kept_english, "invitation")
    assert erik.subject == "Anna invites you to a game of Piratz"


def test_invitation_from_a_german_page_is_german_when_nobody_chose(anna):
    with translation.override("de"):  # the request that creates the game speaks German
        actions.do_create_game(anna, [anna.email, "nina@example.com"])
    [nina] = OutboundEmail.objects.filter(to="nina@example.com", template="invitation")
    assert nina.rendered().subject == "Anna lädt dich zu einer Partie Piratz ein"


def test_a_cancellation_reason_is_written_in_each_recipients_language(anna, bert, carla):
    german(anna)
    game = actions.do_create_game(anna, [anna.email, bert.email, carla.email])
    actions.do_decline_invitation(game.id, bert)

    [to_anna] = mails_to(anna, "game_cancelled")
    assert "Bert hat die Einladung abgelehnt." in to_anna.body_text
    [to_carla] = mails_to(carla, "game_cancelled")
    assert "Bert declined the invitation." in to_carla.body_text


def test_login_link_email_follows_the_page_it_was_asked_from(client, anna, catalog):
    client.post("/accounts/login/", {"email": "new@example.com"}, HTTP_ACCEPT_LANGUAGE="de")
    [mail] = OutboundEmail.objects.filter(to="new@example.com", template="login_link")
    assert mail.rendered().subject == "Dein Anmeldelink für Piratz per E-Mail"
    assert_all_german(mail, catalog)

    # Anna's own setting (English) beats the German page.
    User.objects.filter(pk=anna.pk).update(language="en")
    client.post("/accounts/login/", {"email": anna.email}, HTTP_ACCEPT_LANGUAGE="de")
    [anna_mail] = mails_to(anna, "login_link")
    assert anna_mail.subject == "Your login link for Piratz by mail"


def test_render_email_ignores_the_language_of_the_request_around_it():
    context = {"link": "https://piratz.example/l/", "minutes": 30}
    before = translation.get_language()
    with translation.override("de"):
        english = render_email("login_link", context)
        in_german = render_email("login_link", context, language="de")
    assert english[0] == "Your login link for Piratz by mail"
    assert in_german[0] == "Dein Anmeldelink für Piratz per E-Mail"
    assert "innerhalb von 30 Minuten" in in_german[1]
    assert translation.get_language() == before  # the override did not leak out
