"""Turn reminders: at the player's lead times before the deadline, each once, never after a move."""

from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection

from accounts.models import NotificationSettings, Vacation
from games import actions, deadlines
from games.models import Game
from games.sweeps import _send_reminder, send_due_reminders
from notifications.models import OutboundEmail
from tests.concurrency import at_once
from tests.factories import start_game

pytestmark = pytest.mark.django_db

H = timedelta(hours=1)
START = datetime(2026, 12, 7, 10, 0, tzinfo=UTC)
PASS = {"action": "pass", "treasure": "rings", "bury": None}


def reminders_to(user) -> list[OutboundEmail]:
    return [
        row.rendered() for row in OutboundEmail.objects.filter(template="reminder", to=user.email)
    ]


def sweep_at(moment: datetime) -> int:
    with time_machine.travel(moment, tick=False):
        return send_due_reminders()


@pytest.fixture
def started(anna, bert) -> Game:
    """A 2-player game with 72-hour turns that started at START: Anna (seat 0) to move."""
    with time_machine.travel(START, tick=False):
        return start_game([anna, bert])


def test_a_new_turn_schedules_the_longest_lead_first(started):
    assert started.deadline == START + 72 * H
    assert started.next_reminder_at == START + 48 * H
    assert started.reminder_leads_sent == []


def test_reminders_go_out_24_and_2_hours_before_the_deadline_exactly_once(started, anna, bert):
    assert sweep_at(START + 47 * H) == 0
    assert reminders_to(anna) == []

    assert sweep_at(START + 48 * H) == 1
    assert sweep_at(START + 48 * H + 30 * 60 * timedelta(seconds=1)) == 0  # a second sweep
    assert len(reminders_to(anna)) == 1
    assert Game.objects.get(id=started.id).next_reminder_at == START + 70 * H

    assert sweep_at(START + 69 * H) == 0
    assert sweep_at(START + 70 * H) == 1
    assert sweep_at(START + 71 * H) == 0
    assert len(reminders_to(anna)) == 2
    assert reminders_to(bert) == []
    game = Game.objects.get(id=started.id)
    assert game.next_reminder_at is None
    assert sorted(game.reminder_leads_sent) == [2, 24]


def test_a_move_before_a_reminder_cancels_it(started, anna, bert):
    with time_machine.travel(START + 10 * H, tick=False):
        game = actions.do_play_move(started.id, anna, 0, PASS)
    # Bert's turn began at +10 h: his first reminder is due 48 h later, Anna's never.
    assert game.next_reminder_at == START + 58 * H
    assert sweep_at(START + 48 * H) == 0
    assert sweep_at(START + 70 * H) == 1
    assert reminders_to(anna) == []
    assert len(reminders_to(bert)) == 1


def test_a_sweep_that_read_the_game_before_the_players_move_sends_nothing(started, anna):
    seen = Game.objects.get(id=started.id)
    with time_machine.travel(START + 48 * H, tick=False):
        actions.do_play_move(started.id, anna, 0, PASS)
        claimed = _send_reminder(
            seen.id, seen.version, seen.deadline, seen.next_reminder_at, START + 48 * H
        )
    assert claimed == 0
    assert reminders_to(anna) == []


def test_two_sweeps_claiming_the_same_reminder_send_it_once(started, anna):
    seen = Game.objects.get(id=started.id)
    moment = START + 48 * H
    with time_machine.travel(moment, tick=False):
        first = _send_reminder(seen.id, seen.version, seen.deadline, seen.next_reminder_at, moment)
        second = _send_reminder(seen.id, seen.version, seen.deadline, seen.next_reminder_at, moment)
    assert (first, second) == (1, 0)
    assert len(reminders_to(anna)) == 1


def test_revealing_a_card_keeps_the_turns_reminders(started, anna):
    with time_machine.travel(START + 1 * H, tick=False):
        game = actions.do_play_move(started.id, anna, 0, {"action": "reveal"})
    assert game.next_reminder_at == START + 48 * H
    assert sweep_at(START + 48 * H) == 1
    assert len(reminders_to(anna)) == 1


def test_a_sweep_that_was_down_sends_one_reminder_for_every_lead_it_missed(started, anna):
    assert sweep_at(START + 71 * H) == 1
    assert sweep_at(START + 71 * H) == 0
    assert len(reminders_to(anna)) == 1
    assert Game.objects.get(id=started.id).next_reminder_at is None


def test_a_lead_as_long_as_the_turn_is_skipped(anna, bert):
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert], turn_hours=24)
    assert game.next_reminder_at == START + 22 * H
    assert sweep_at(START + 21 * H) == 0
    assert sweep_at(START + 22 * H) == 1


def test_the_players_own_lead_times_are_used(anna, bert):
    NotificationSettings.objects.create(user=anna, reminder_leads=[6])
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert])
    assert game.next_reminder_at == START + 66 * H


@pytest.mark.parametrize("mode", ["digest", "off"])
def test_no_reminders_are_scheduled_for_a_player_who_does_not_want_them(anna, bert, mode):
    NotificationSettings.objects.create(user=anna, mode=mode)
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert])
    assert game.next_reminder_at is None
    assert sweep_at(START + 71 * H) == 0


def test_a_vacation_moves_the_reminders_with_the_deadline(started, anna):
    with time_machine.travel(START + 1 * H, tick=False):
        Vacation.objects.create(user=anna, starts_at=START + 2 * H, ends_at=START + 26 * H)
        deadlines.refresh_deadlines_for(anna)
    game = Game.objects.get(id=started.id)
    assert game.deadline == START + 96 * H
    assert game.next_reminder_at == START + 72 * H
    assert sweep_at(START + 48 * H) == 0
    assert sweep_at(START + 72 * H) == 1


def test_a_moderators_extension_moves_the_reminders(started, anna, moderator):
    assert sweep_at(START + 48 * H) == 1  # the 24-hour reminder went out
    with time_machine.travel(START + 50 * H, tick=False):
        actions.do_extend_deadline(started.id, moderator, 24, reason="test")
    game = Game.objects.get(id=started.id)
    # Only the 2-hour reminder is left: each goes out once per turn.
    assert game.next_reminder_at == START + 94 * H
    assert sweep_at(START + 72 * H) == 0
    assert sweep_at(START + 94 * H) == 1
    assert len(reminders_to(anna)) == 2


def test_the_reminder_names_the_deadline(started, anna):
    sweep_at(START + 70 * H)
    (email,) = reminders_to(anna)
    assert "Thursday 10 December, 10:00 UTC" in email.body_text


def test_a_claim_from_before_a_reveal_sends_nothing_and_the_next_sweep_sends_it(started, anna):
    seen = Game.objects.get(id=started.id)
    moment = START + 48 * H
    with time_machine.travel(moment, tick=False):
        actions.do_play_move(started.id, anna, 0, {"action": "reveal"})
        stale = _send_reminder(seen.id, seen.version, seen.deadline, seen.next_reminder_at, moment)
        assert stale == 0
        assert send_due_reminders() == 1
    assert len(reminders_to(anna)) == 1


def test_a_worker_that_lost_the_race_after_reading_the_game_sends_nothing(
    started, anna, monkeypatch
):
    # Worker B reads the game, then worker A claims and queues the reminder before B's
    # UPDATE: B's guard (the next_reminder_at it read) must then match no row.
    from games import sweeps

    seen = Game.objects.get(id=started.id)
    moment = START + 48 * H
    original = sweeps.settings_for
    raced = []

    def other_worker_wins_meanwhile(user):
        if not raced:
            raced.append(None)  # before the call: the other worker's own read is unhindered
            raced[0] = _send_reminder(
                seen.id, seen.version, seen.deadline, seen.next_reminder_at, moment
            )
        return original(user)

    monkeypatch.setattr(sweeps, "settings_for", other_worker_wins_meanwhile)
    with time_machine.travel(moment, tick=False):
        late = _send_reminder(seen.id, seen.version, seen.deadline, seen.next_reminder_at, moment)
    assert (raced, late) == ([1], 0)
    assert len(reminders_to(anna)) == 1


def test_no_reminder_once_the_deadline_has_passed(started, anna):
    # The sweep was down over both reminders and the deadline: the timeout sweep acts,
    # a reminder now would only confuse.
    assert sweep_at(START + 73 * H) == 0
    assert reminders_to(anna) == []
    assert Game.objects.get(id=started.id).next_reminder_at is None


# --- Several sweeps at once on PostgreSQL (real row locks, real concurrent transactions) -


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="concurrent transactions on one database need PostgreSQL (the CI's first run)",
)
def test_four_sweeps_at_once_queue_each_due_reminder_once(anna, bert):
    with time_machine.travel(START, tick=False):
        game_ids = [start_game([anna, bert]).id for _ in range(12)]
    with time_machine.travel(START + 48 * H, tick=False):
        counts = at_once([lambda: send_due_reminders(START + 48 * H)] * 4)

    assert sum(counts) == len(game_ids)
    per_game = Counter(email.topic for email in reminders_to(anna))
    assert len(per_game) == len(game_ids)
    assert set(per_game.values()) == {1}


def test_a_player_who_switched_reminders_off_mid_turn_gets_none(started, anna):
    NotificationSettings.objects.create(user=anna, unsubscribed=["reminder"])
    assert sweep_at(START + 48 * H) == 0
    assert reminders_to(anna) == []
    # Claimed all the same: the next one is scheduled, and is not sent either.
    assert Game.objects.get(id=started.id).next_reminder_at == START + 70 * H
    assert sweep_at(START + 70 * H) == 0
