"""The fast clock of local runs (TURN_HOUR_SECONDS, `make run FAST=1`): a turn hour lasts
that many seconds, for deadlines, reminder leads and moderators' extensions alike."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.bots import bot_deadline
from games.deadlines import extend_turn, reminder_due
from games.models import Move
from games.sweeps import play_due_timeouts, send_due_reminders
from notifications.models import OutboundEmail
from tests.factories import start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def fast_clock(settings):
    settings.TURN_HOUR_SECONDS = 60  # what `make run FAST=1` sets


def test_a_turn_of_three_hours_lasts_three_minutes_and_times_out(fast_clock, anna, bert):
    game = start_game([anna, bert], turn_hours=3)
    assert game.deadline - game.turn_started_at == timedelta(minutes=3)
    # The default leads are 24 and 2 hours: 24 is longer than the turn, 2 falls a minute in.
    assert game.next_reminder_at == game.deadline - timedelta(minutes=2)

    with time_machine.travel(game.next_reminder_at + timedelta(seconds=1), tick=False):
        assert send_due_reminders() == 1
    player = {0: anna, 1: bert}[game.current_seat]
    assert OutboundEmail.objects.filter(template="reminder", to=player.email).count() == 1

    with time_machine.travel(game.deadline + timedelta(seconds=1), tick=False):
        assert play_due_timeouts() == 1
    assert Move.objects.get(game=game, number=1).automatic


def test_reminder_leads_and_extensions_are_turn_hours(fast_clock, anna, bert):
    now = timezone.now()
    assert reminder_due(now, timedelta(minutes=3), [2, 24], []) == (
        now - timedelta(minutes=2),
        2,
    )
    game = start_game([anna, bert], turn_hours=3)
    before = game.deadline
    extend_turn(game, 24, game.turn_started_at)
    assert game.deadline - before == timedelta(minutes=24)


def test_without_the_fast_clock_an_hour_is_an_hour(anna, bert):
    game = start_game([anna, bert], turn_hours=3)
    assert game.deadline - game.turn_started_at == timedelta(hours=3)


def test_a_bot_turns_grace_is_on_the_turn_clock(fast_clock, settings):
    # The 120 s after which the sweep plays a lost bot task's move are 2 s at 60; the bot's
    # own move delay (3 s, so the game feels natural) is not tied to turns.
    settings.BOT_MOVE_DELAY_SECONDS, settings.BOT_TURN_GRACE_SECONDS = 3, 120
    now = timezone.now()
    assert bot_deadline(now) == now + timedelta(seconds=3 + 2)
    settings.TURN_HOUR_SECONDS = 3600
    assert bot_deadline(now) == now + timedelta(seconds=3 + 120)
