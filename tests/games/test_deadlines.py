"""Turn deadlines: the clock pauses during vacations, deadlines leave quiet hours (DST too)."""

from datetime import UTC, datetime, time, timedelta
from functools import partial
from zoneinfo import ZoneInfo

import pytest
import time_machine

from accounts.models import NotificationSettings, Vacation
from accounts.preferences import do_update_settings
from accounts.schedule import quiet_until
from games import actions, deadlines
from games.deadlines import clock_time_between, deadline_after, reminder_due
from games.models import Game
from notifications.models import OutboundEmail
from tests.factories import start_game

BERLIN = ZoneInfo("Europe/Berlin")
H = timedelta(hours=1)
START = datetime(2026, 12, 7, 10, 0, tzinfo=UTC)  # a Monday, 11:00 in Berlin


def berlin_quiet(start: time, end: time):
    return partial(quiet_until, BERLIN, start, end)


def at(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


# --- The pure arithmetic ---------------------------------------------------------------


def test_without_vacation_or_quiet_hours_the_turn_length_is_the_deadline():
    assert deadline_after(START, 72 * H) == START + 72 * H


def test_a_vacation_in_the_middle_of_a_turn_pauses_the_clock_and_resumes_with_the_time_left():
    # 24 h used, then 30 h away: the 48 h left run from the vacation's end.
    away = (START + 24 * H, START + 54 * H)
    assert deadline_after(START, 72 * H, [away]) == START + 54 * H + 48 * H


def test_a_turn_starting_inside_a_vacation_starts_its_clock_at_the_end():
    away = (START - 10 * H, START + 5 * H)
    assert deadline_after(START, 72 * H, [away]) == START + 5 * H + 72 * H


def test_vacations_before_the_turn_or_after_its_deadline_change_nothing():
    before = (START - 50 * H, START - 1 * H)
    after = (START + 73 * H, START + 100 * H)
    assert deadline_after(START, 72 * H, [before, after]) == START + 72 * H


def test_several_vacations_each_pause_the_clock():
    first = (START + 10 * H, START + 20 * H)
    second = (START + 30 * H, START + 40 * H)
    assert deadline_after(START, 72 * H, [first, second]) == START + 92 * H


def test_a_deadline_falling_exactly_at_a_vacations_start_waits_for_its_end():
    away = (START + 72 * H, START + 80 * H)
    assert deadline_after(START, 72 * H, [away]) == START + 80 * H


def test_quiet_hours_push_a_deadline_across_midnight_to_their_end():
    # 72 h from Monday 21:30 UTC is Thursday 21:30 UTC = 22:30 in Berlin (CET): quiet
    # from 22:00 to 07:00, so the deadline is Friday 07:00 Berlin = 06:00 UTC.
    start = at(2026, 12, 7, 21, 30)
    quiet = berlin_quiet(time(22), time(7))
    assert deadline_after(start, 72 * H, quiet_until=quiet) == at(2026, 12, 11, 6, 0)


def test_quiet_hours_after_midnight_end_the_same_morning():
    start = at(2026, 12, 7, 1, 0)  # + 72 h = Thursday 02:00 Berlin
    quiet = berlin_quiet(time(22), time(7))
    assert deadline_after(start, 72 * H, quiet_until=quiet) == at(2026, 12, 10, 6, 0)


def test_a_deadline_outside_quiet_hours_stays():
    quiet = berlin_quiet(time(22), time(7))
    assert deadline_after(START, 72 * H, quiet_until=quiet) == START + 72 * H


def test_quiet_hours_ending_on_the_autumn_dst_night_end_at_local_seven_in_winter_time():
    # 2026-10-25: Berlin's clocks go back from 03:00 CEST to 02:00 CET. The raw deadline
    # 00:30 UTC is 02:30 CEST; quiet hours end at 07:00 CET, which is 06:00 UTC (07:00
    # in summer time would have been 05:00 UTC).
    start = at(2026, 10, 22, 0, 30)
    quiet = berlin_quiet(time(23), time(7))
    deadline = deadline_after(start, 72 * H, quiet_until=quiet)
    assert deadline == at(2026, 10, 25, 6, 0)
    assert deadline.astimezone(BERLIN).hour == 7


def test_quiet_hours_ending_on_the_spring_dst_night_end_at_local_seven_in_summer_time():
    # 2027-03-28: 02:00 CET jumps to 03:00 CEST. The raw deadline 00:30 UTC is 01:30 CET,
    # inside quiet hours; they end at 07:00 CEST = 05:00 UTC.
    start = at(2027, 3, 25, 8, 30)  # 09:30 CET: the clock starts at once
    quiet = berlin_quiet(time(23), time(7))
    deadline = deadline_after(start, 64 * H, quiet_until=quiet)
    assert deadline == at(2027, 3, 28, 5, 0)
    assert deadline.astimezone(BERLIN).hour == 7


def test_quiet_hours_ending_inside_a_vacation_wait_for_the_vacations_end():
    start = at(2026, 12, 7, 13, 0)  # + 60 h: raw deadline Thursday 02:00 Berlin (01:00 UTC)
    away = (at(2026, 12, 10, 5, 0), at(2026, 12, 10, 12, 0))  # starts before quiet ends
    quiet = berlin_quiet(time(22), time(7))
    assert deadline_after(start, 60 * H, [away], quiet) == at(2026, 12, 10, 12, 0)


def test_a_vacation_ending_in_quiet_hours_moves_the_deadline_to_their_end():
    away = (START + 72 * H, at(2026, 12, 10, 23, 0))  # ends at midnight Berlin
    quiet = berlin_quiet(time(22), time(7))
    assert deadline_after(START, 72 * H, [away], quiet) == at(2026, 12, 11, 6, 0)


def test_a_turn_that_begins_in_quiet_hours_starts_its_clock_at_their_end():
    # New York, quiet from 18:00 to 08:00 (13:00 UTC), a 12-hour turn begun at 18:50. Its
    # clock starts at 08:00, when the turn email goes out; 20:00 is quiet again, so the
    # deadline is the next morning's 08:00. Counted from 18:50 it ran out at 06:50, and
    # quiet hours had put it at 08:00 the first morning: the moment the email arrived.
    quiet = partial(quiet_until, ZoneInfo("America/New_York"), time(18), time(8))
    start = at(2026, 11, 24, 23, 50)
    assert deadlines.clock_start(start, quiet) == at(2026, 11, 25, 13, 0)
    assert deadline_after(start, 12 * H, quiet_until=quiet) == at(2026, 11, 26, 13, 0)


def test_a_turn_that_begins_outside_quiet_hours_starts_its_clock_at_once():
    quiet = berlin_quiet(time(22), time(7))
    assert deadlines.clock_start(START, quiet) == START
    assert deadlines.clock_start(START) == START


def test_clock_time_between_leaves_out_vacations():
    away = (START + 2 * H, START + 5 * H)
    assert clock_time_between(START, START + 10 * H, [away]) == 7 * H
    assert clock_time_between(START + 3 * H, START + 4 * H, [away]) == timedelta(0)


def test_reminders_come_longest_lead_first_each_once():
    deadline = START + 72 * H
    assert reminder_due(deadline, 72 * H, [2, 24], []) == (deadline - 24 * H, 24)
    assert reminder_due(deadline, 72 * H, [2, 24], [24]) == (deadline - 2 * H, 2)
    assert reminder_due(deadline, 72 * H, [2, 24], [24, 2]) is None
    assert reminder_due(deadline, 72 * H, [], []) is None


def test_a_reminder_lead_not_shorter_than_the_turn_is_skipped():
    deadline = START + 24 * H
    assert reminder_due(deadline, 24 * H, [24, 2], []) == (deadline - 2 * H, 2)
    assert reminder_due(deadline, 24 * H, [48], []) is None


# --- With the database: the game's deadline follows the player's settings ----------------


def vacation(user, start, end):
    Vacation.objects.create(user=user, starts_at=start, ends_at=end)


@pytest.mark.django_db
def test_a_game_starts_with_the_first_players_deadline_and_turn_start(anna, bert):
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert])
    assert game.turn_started_at == START
    assert game.deadline == START + 72 * H


@pytest.mark.django_db
def test_a_player_on_vacation_when_their_turn_begins_gets_the_time_after_it(anna, bert):
    vacation(bert, START - 24 * H, START + 48 * H)
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert], turn_hours=24)
        game = actions.do_play_move(
            game.id, anna, 0, {"action": "pass", "treasure": "rings", "bury": None}
        )
    assert game.current_seat == 1
    assert game.deadline == START + 48 * H + 24 * H


@pytest.mark.django_db
def test_declaring_a_vacation_mid_turn_pauses_the_running_deadline(anna, bert):
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert])
    # Ten hours in, Anna declares three days away starting tomorrow.
    with time_machine.travel(START + 10 * H, tick=False):
        vacation(anna, START + 24 * H, START + 96 * H)
        assert deadlines.refresh_deadlines_for(anna) == 1
        assert deadlines.refresh_deadlines_for(bert) == 0  # not his turn anywhere
    game.refresh_from_db()
    assert game.deadline == START + 72 * H + 72 * H
    # The timeout does not play at the old deadline.
    with time_machine.travel(START + 73 * H, tick=False):
        assert actions.do_play_timeout(game.id, expected_version=0) is None


@pytest.mark.django_db
def test_quiet_hours_move_the_games_deadline(anna, bert):
    NotificationSettings.objects.create(
        user=anna, time_zone="Europe/Berlin", quiet_start=time(10), quiet_end=time(14)
    )
    with time_machine.travel(START, tick=False):  # 11:00 Berlin: + 72 h is quiet
        game = start_game([anna, bert])
    assert game.deadline == at(2026, 12, 10, 13, 0)  # 14:00 Berlin


@pytest.mark.django_db
def test_a_turn_begun_in_quiet_hours_gets_its_whole_length_after_its_email(anna, bert):
    # Bert (New York) is quiet from 18:00 to 08:00; Anna ends her turn at 18:50 his time.
    NotificationSettings.objects.create(
        user=bert, time_zone="America/New_York", quiet_start=time(18), quiet_end=time(8)
    )
    with time_machine.travel(at(2026, 11, 24, 23, 0), tick=False):
        game = start_game([anna, bert], turn_hours=12)
    with time_machine.travel(at(2026, 11, 24, 23, 50), tick=False):
        game = actions.do_play_move(
            game.id, anna, game.version, {"action": "pass", "treasure": "rings", "bury": None}
        )
    email = OutboundEmail.objects.get(to=bert.email, template="your_turn")
    assert email.send_after == at(2026, 11, 25, 13, 0)  # 08:00 in New York
    assert game.deadline - email.send_after >= 12 * H
    assert game.deadline == at(2026, 11, 26, 13, 0)


@pytest.mark.django_db
def test_an_extension_of_a_turn_begun_in_quiet_hours_ends_where_the_moderator_said(
    anna, bert, moderator
):
    NotificationSettings.objects.create(
        user=anna, time_zone="Europe/Berlin", quiet_start=time(10), quiet_end=time(14)
    )
    with time_machine.travel(START, tick=False):  # 11:00 Berlin: the clock starts at 14:00
        game = start_game([anna, bert], turn_hours=24)
        assert game.deadline == at(2026, 12, 8, 13, 0)
        actions.do_extend_deadline(game.id, moderator, 5, reason="test")
    assert Game.objects.get(id=game.id).deadline == at(2026, 12, 8, 18, 0)


@pytest.mark.django_db
def test_a_moderators_extension_survives_a_vacation_declared_later(anna, bert, moderator):
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert])
        actions.do_extend_deadline(game.id, moderator, 10, reason="test")
        actions.do_extend_deadline(game.id, moderator, 2, reason="test")
    game.refresh_from_db()
    assert game.deadline == START + 84 * H
    with time_machine.travel(START + 1 * H, tick=False):
        vacation(anna, START + 2 * H, START + 4 * H)
        deadlines.refresh_deadlines_for(anna)
    game.refresh_from_db()
    assert game.deadline == START + 86 * H


@pytest.mark.django_db
def test_an_extension_of_a_passed_deadline_counts_from_now(anna, bert, moderator):
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert], turn_hours=10)
    with time_machine.travel(START + 15 * H, tick=False):
        actions.do_extend_deadline(game.id, moderator, 3, reason="test")
    assert Game.objects.get(id=game.id).deadline == START + 18 * H


@pytest.mark.django_db
def test_changing_quiet_hours_or_lead_times_mid_turn_moves_the_deadline_and_reminders(anna, bert):
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert])
    changes = {"time_zone": "Europe/Berlin", "quiet_hours": (time(10), time(14))}
    do_update_settings(anna, changes, now=START + H)
    game.refresh_from_db()
    assert game.deadline == at(2026, 12, 10, 13, 0)  # 14:00 Berlin, the quiet hours' end
    assert game.next_reminder_at == at(2026, 12, 9, 13, 0)

    do_update_settings(anna, {"quiet_hours": None, "reminder_leads": [6]}, now=START + H)
    game.refresh_from_db()
    assert game.deadline == START + 72 * H
    assert game.next_reminder_at == START + 66 * H
    # Bert's settings do not touch a game that waits on Anna.
    do_update_settings(bert, {"reminder_leads": [1]}, now=START + H)
    assert Game.objects.get(id=game.id).next_reminder_at == START + 66 * H


@pytest.mark.django_db
def test_a_turn_begun_before_turn_starts_were_recorded_keeps_its_clock(anna, bert):
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert])
    Game.objects.filter(id=game.id).update(turn_started_at=None)
    with time_machine.travel(START + H, tick=False):
        Vacation.objects.create(user=anna, starts_at=START + 2 * H, ends_at=START + 3 * H)
        deadlines.refresh_deadlines_for(anna)
    assert Game.objects.get(id=game.id).deadline == START + 73 * H
