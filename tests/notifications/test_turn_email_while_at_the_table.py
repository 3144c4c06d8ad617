"""No turn email to a player who is looking at the table (games.presence, games.notify):
it waits TURN_EMAIL_HOLD_SECONDS, goes if the turn is still theirs, is dropped otherwise."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from games import actions, presence
from games.models import Game
from games.notify import reminder
from notifications.models import OutboundEmail
from notifications.outbox import queue_email, send_due_emails
from notifications.send_checks import SendCheck
from tests.factories import start_game, start_toy_game, toy_move
from tests.notifications.conftest import START, TURN_CONTEXT, emails, time_out

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("site_and_clock")]

HOLD = timedelta(minutes=5)  # TURN_EMAIL_HOLD_SECONDS' default


@pytest.fixture
def started(toy_games, anna, bert, carla) -> Game:
    """A 3-player game (the toy tic-tac-toe: the hold is the platform's), Anna to move, the
    outbox empty."""
    game = start_toy_game([anna, bert, carla], stand_in_bots=False)
    OutboundEmail.objects.all().delete()
    return game


def at_the_table(user, game: Game) -> Client:
    """``user``'s open table: its live refresh asks the version, as a visible tab does."""
    client = Client()
    client.force_login(user)
    assert client.get(reverse("games:version", args=[game.id])).status_code == 200
    return client


def play(game: Game, user, action: dict) -> Game:
    game = actions.do_play_move(game.id, user, game.version, action)
    game.refresh_from_db()
    return game


def pass_turn(game: Game, user) -> Game:
    """The player to move ends their turn (a pass in Piratz, any mark in tic-tac-toe): the
    turn goes on."""
    legal = game.rules.legal_actions(game.load_state(), game.current_seat)
    return play(game, user, next((a for a in legal if a["action"] == "pass"), toy_move(game)))


def sent_to(mailoutbox, user) -> list:
    return [m for m in mailoutbox if m.to == [user.email]]


def test_a_player_away_from_the_table_gets_the_turn_email_at_once(started, anna, bert, mailoutbox):
    at_the_table(anna, started)  # someone else at the table changes nothing for Bert
    pass_turn(started, anna)
    [mail] = emails("your_turn", bert)
    assert mail.send_after == START
    assert send_due_emails().held == 0
    assert len(sent_to(mailoutbox, bert)) == 1


def test_a_player_at_the_table_gets_no_turn_email_at_once(started, anna, bert, mailoutbox):
    at_the_table(bert, started)
    pass_turn(started, anna)
    [mail] = emails("your_turn", bert)
    assert send_due_emails().held == 1  # the worker asks, not the move's transaction
    assert sent_to(mailoutbox, bert) == []
    mail.refresh_from_db()
    assert mail.status == "pending" and mail.send_after == START + HOLD


def test_opening_the_table_page_counts_as_being_at_the_table(started, anna, bert):
    client = Client()
    client.force_login(bert)
    assert client.get(reverse("games:game", args=[started.id])).status_code == 200
    pass_turn(started, anna)
    assert send_due_emails().held == 1
    [mail] = emails("your_turn", bert)
    assert mail.send_after == START + HOLD


def test_held_email_goes_after_the_hold_when_the_turn_is_still_theirs(
    started, anna, bert, mailoutbox, time_machine
):
    at_the_table(bert, started)
    pass_turn(started, anna)
    time_machine.move_to(START + HOLD, tick=False)  # Bert closed the tab long ago
    send_due_emails()
    send_due_emails()  # a second sweep finds nothing left to do
    [message] = sent_to(mailoutbox, bert)
    assert message.subject.startswith("Your turn in Tic-tac-toe")
    [mail] = emails("your_turn", bert)
    assert mail.status == "sent" and mail.attempts == 1


def test_held_email_is_dropped_when_the_player_moved(anna, bert, carla, mailoutbox, time_machine):
    # A game whose turn may take several moves (Piratz), so the turn is still his after one.
    started = start_game([anna, bert, carla], stand_in_bots=False)
    OutboundEmail.objects.all().delete()
    at_the_table(bert, started)
    game = pass_turn(started, anna)
    play(game, bert, {"action": "reveal"})  # he plays on: still his turn, but he moved
    time_machine.move_to(START + HOLD, tick=False)
    result = send_due_emails()
    assert result.dropped == 1 and sent_to(mailoutbox, bert) == []
    mail = OutboundEmail.objects.get(template="your_turn", to=bert.email)
    assert mail.status == "dropped" and mail.attempts == 0
    assert "turn passed" in mail.last_error
    assert mail.context is None and mail.deliveries.count() == 0  # no link kept, no attempt
    assert send_due_emails().tried == 0  # dropped for good: never sent later


def test_held_email_is_dropped_when_the_turn_timed_out(started, anna, bert, time_machine):
    at_the_table(bert, started)
    game = pass_turn(started, anna)
    time_out(game, time_machine)  # the service played for him: the game moved on
    send_due_emails()
    mail = OutboundEmail.objects.get(template="your_turn", to=bert.email)
    assert mail.status == "dropped"


def test_held_once_more_while_still_at_the_table_then_sent_once(
    started, anna, bert, mailoutbox, time_machine
):
    at_the_table(bert, started)
    pass_turn(started, anna)
    time_machine.move_to(START + HOLD, tick=False)
    at_the_table(bert, started)  # still looking, five minutes on
    assert send_due_emails().held == 1
    mail = OutboundEmail.objects.get(template="your_turn", to=bert.email)
    assert mail.status == "pending" and mail.send_after == START + 2 * HOLD
    assert mail.attempts == 0 and mail.deliveries.count() == 0  # waiting is not an attempt
    time_machine.move_to(START + 2 * HOLD, tick=False)
    at_the_table(bert, started)  # a tab left open: the email goes anyway now
    send_due_emails()
    send_due_emails()
    assert len(sent_to(mailoutbox, bert)) == 1


def test_the_reminder_is_not_held_at_the_table(started, anna, bert, time_machine):
    game = pass_turn(started, anna)
    time_machine.move_to(game.deadline - timedelta(hours=2), tick=False)
    at_the_table(bert, game)
    mail = reminder.queue_reminder(game, 1, game.deadline)
    assert mail is not None and mail.send_check is None
    assert mail.send_after == game.deadline - timedelta(hours=2)


def test_on_the_fast_clock_the_hold_is_shorter_and_the_email_goes_before_the_deadline(
    toy_games, anna, bert, settings, mailoutbox, time_machine
):
    settings.TURN_HOUR_SECONDS = 60  # `make run FAST=1`: an hour of the turn clock a minute
    game = start_toy_game([anna, bert], turn_hours=1, stand_in_bots=False)  # a 1-minute turn
    OutboundEmail.objects.all().delete()
    at_the_table(bert, game)
    pass_turn(game, anna)
    [mail] = emails("your_turn", bert)
    hold = timedelta(seconds=5)  # the 5 minutes of TURN_EMAIL_HOLD_SECONDS, scaled by 60/3600
    assert send_due_emails().held == 1
    mail.refresh_from_db()
    assert mail.send_after == START + hold
    # Bert stays at the table but does not move: held once more, then sent, in the turn.
    time_machine.move_to(START + hold, tick=False)
    assert send_due_emails().held == 1
    time_machine.move_to(START + 2 * hold, tick=False)
    send_due_emails()
    assert len(sent_to(mailoutbox, bert)) == 1
    assert START + 2 * hold < Game.objects.get(pk=game.pk).deadline


def test_no_hold_when_holding_is_off(started, anna, bert, settings):
    settings.TURN_EMAIL_HOLD_SECONDS = 0
    at_the_table(bert, started)
    pass_turn(started, anna)
    [mail] = emails("your_turn", bert)
    assert mail.send_after == START and mail.send_check is None


def test_a_seat_is_live_for_live_seconds_after_its_table_asked(settings):
    settings.LIVE_SECONDS = 30
    presence.mark_live("g", 1, START)
    assert presence.is_live("g", 1, START + timedelta(seconds=30))
    assert not presence.is_live("g", 1, START + timedelta(seconds=31))
    assert not presence.is_live("g", 0, START)  # another seat
    assert not presence.is_live("h", 1, START)  # another game


def test_an_email_cannot_name_a_send_check_nobody_registered():
    with pytest.raises(ValueError, match="no send check"):
        queue_email(
            "anna@example.com", "test_message", TURN_CONTEXT, send_check=SendCheck("nope", {})
        )
