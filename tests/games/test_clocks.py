"""Game clocks (games.clocks): a time bank per seat and a daily deadline, with vacations,
quiet hours, pauses and rematches."""

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.utils import translation

from accounts.models import NotificationSettings, Vacation
from core.errors import ServiceError
from games import actions, clocks
from games.deadlines import daily_clock_end, refresh_deadlines_for
from games.models import Game, Seat
from tests.factories import start_game

BERLIN = ZoneInfo("Europe/Berlin")
H = timedelta(hours=1)
START = datetime(2026, 12, 7, 10, 0, tzinfo=UTC)  # a Monday, 11:00 in Berlin
BANK = {"kind": "bank", "bank_hours": 100, "increment_hours": 36, "cap_hours": 120}
WIDE_BANK = {**BANK, "cap_hours": 480}
ANNA_PASSES = {"action": "pass", "treasure": "rings", "bury": None}


def at(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def bank_of(game: Game, seat: int) -> timedelta:
    return timedelta(seconds=Seat.objects.get(game=game, seat=seat).bank_seconds)


# --- The pure parts ------------------------------------------------------------------------


def test_a_bank_spends_the_time_used_and_gains_the_increment():
    assert clocks.bank_after_turn(100 * H - 10 * H, 36 * H, 500 * H) == 126 * H


def test_a_bank_never_grows_past_its_cap():
    assert clocks.bank_after_turn(100 * H, 36 * H, 120 * H) == 120 * H


def test_an_empty_bank_keeps_only_the_increment():
    assert clocks.bank_after_turn(-5 * H, 36 * H, 120 * H) == 36 * H


def test_a_daily_deadline_is_the_hour_at_least_twelve_hours_after_the_turn_starts():
    # 11:00 Berlin: 20:00 today is only 9 hours away, so tomorrow's 20:00.
    assert daily_clock_end(START, 20, BERLIN) == at(2026, 12, 8, 19, 0)
    # 07:00 Berlin: 20:00 today is 13 hours away.
    assert daily_clock_end(at(2026, 12, 7, 6, 0), 20, BERLIN) == at(2026, 12, 7, 19, 0)


def test_a_daily_deadline_keeps_its_local_hour_across_daylight_saving_time():
    # Berlin leaves summer time in the night to Sunday 25 October 2026: 20:00 is 18:00 UTC
    # on Saturday and 19:00 UTC on Sunday.
    saturday_morning = at(2026, 10, 24, 5, 0)  # 07:00 summer time
    assert daily_clock_end(saturday_morning, 20, BERLIN) == at(2026, 10, 24, 18, 0)
    saturday_noon = at(2026, 10, 24, 10, 0)
    assert daily_clock_end(saturday_noon, 20, BERLIN) == at(2026, 10, 25, 19, 0)
    # And into summer time on 29 March 2026: 20:00 is 19:00 UTC, then 18:00 UTC.
    assert daily_clock_end(at(2026, 3, 28, 10, 0), 20, BERLIN) == at(2026, 3, 29, 18, 0)


def test_a_daily_deadline_inside_a_vacation_moves_to_the_hour_after_it():
    away = (at(2026, 12, 8, 12, 0), at(2026, 12, 10, 9, 0))
    assert daily_clock_end(START, 20, BERLIN, [away]) == at(2026, 12, 10, 19, 0)


@pytest.mark.parametrize(
    ("clock", "words"),
    [
        ("bank", "kind"),
        ({"kind": "hourglass"}, '"per_turn", "bank" or "daily"'),
        ({"kind": "bank", "bank_hours": 0}, "bank_hours must be a whole number from 1"),
        ({"kind": "bank", "increment_hours": 1.5}, "increment_hours must be a whole number"),
        ({"kind": "bank", "bank_hours": 300, "cap_hours": 200}, "at least its bank_hours"),
        ({"kind": "bank", "hour": 20}, "A clock of kind bank takes no hour."),
        ({"kind": "daily"}, "A daily clock needs its hour"),
        ({"kind": "daily", "hour": 24}, "hour must be a whole number from 0 to 23"),
        ({"kind": "per_turn", "cap_hours": 5}, "takes no cap_hours"),
    ],
)
def test_bad_clocks_are_refused_with_the_reason(clock, words):
    with pytest.raises(ServiceError) as refused:
        clocks.clean_clock(clock)
    assert refused.value.code == "invalid"
    assert words in refused.value.detail


def test_a_bank_without_its_numbers_takes_the_defaults():
    fields = clocks.clean_clock({"kind": "bank"})
    assert (fields["bank_hours"], fields["increment_hours"], fields["cap_hours"]) == (240, 36, 480)


def test_the_bank_in_words_in_english_and_german():
    assert clocks.bank_words((9 * 24 + 4) * 3600) == "9 days 4 hours"
    assert clocks.bank_words(40 * 60) == "40 minutes"
    with translation.override("de"):
        assert clocks.bank_words((9 * 24 + 4) * 3600) == "9 Tage 4 Stunden"


# --- A time bank game ------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_bank_game_gives_every_seat_its_bank_and_the_first_turn_the_whole_bank(anna, bert):
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert], clock=BANK)
    assert [s.bank_seconds for s in game.seats.all()] == [100 * 3600, 100 * 3600]
    assert game.deadline == START + 100 * H


@pytest.mark.django_db
def test_a_move_spends_the_time_used_and_adds_the_increment(anna, bert):
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert], clock=BANK)
    with time_machine.travel(START + 80 * H, tick=False):
        game = actions.do_play_move(game.id, anna, 0, ANNA_PASSES)
    assert bank_of(game, 0) == 100 * H - 80 * H + 36 * H
    assert bank_of(game, 1) == 100 * H  # Bert's turn spends from his own
    assert game.deadline == START + 80 * H + 100 * H


@pytest.mark.django_db
def test_a_quick_move_fills_the_bank_only_up_to_its_cap(anna, bert):
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert], clock=BANK)
    with time_machine.travel(START + 10 * H, tick=False):
        game = actions.do_play_move(game.id, anna, 0, ANNA_PASSES)
    assert bank_of(game, 0) == 120 * H  # 126 h, held at the cap


@pytest.mark.django_db
def test_an_empty_bank_times_out_and_keeps_the_increment(anna, bert):
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert], clock=BANK)
    assert actions.do_play_timeout(game.id, expected_version=0) is None  # not yet
    with time_machine.travel(START + 100 * H, tick=False):
        game = actions.do_play_timeout(game.id, expected_version=0)
        assert game.version == 1 and game.current_seat == 1
        # Bert's turn starts with his whole bank.
        assert game.deadline == START + 200 * H
    assert bank_of(game, 0) == 36 * H


@pytest.mark.django_db
def test_a_vacation_pauses_the_bank(anna, bert):
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert], clock=BANK)
    with time_machine.travel(START + 5 * H, tick=False):
        Vacation.objects.create(user=anna, starts_at=START + 10 * H, ends_at=START + 58 * H)
        refresh_deadlines_for(anna)  # as declaring the vacation does
    game.refresh_from_db()
    assert game.deadline == START + 148 * H  # 100 h of clock time around 48 h away
    with time_machine.travel(START + 70 * H, tick=False):
        game = actions.do_play_move(game.id, anna, 0, ANNA_PASSES)
    # 70 h since the start, 48 of them away: 22 h used (100 - 22 + 36, held at the cap).
    assert bank_of(game, 0) == 114 * H


@pytest.mark.django_db
def test_quiet_hours_at_the_turns_start_are_not_spent(anna, bert):
    NotificationSettings.objects.create(
        user=anna, time_zone="Europe/Berlin", quiet_start=time(10), quiet_end=time(14)
    )
    with time_machine.travel(START, tick=False):  # 11:00 Berlin: the clock starts at 14:00
        game = start_game([anna, bert], clock=WIDE_BANK)
    assert game.deadline == START + 3 * H + 100 * H
    with time_machine.travel(START + 13 * H, tick=False):
        game = actions.do_play_move(game.id, anna, 0, ANNA_PASSES)
    assert bank_of(game, 0) == 100 * H - 10 * H + 36 * H


@pytest.mark.django_db
def test_a_pause_stops_the_bank_and_resuming_gives_back_what_was_left(anna, bert):
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert], clock=WIDE_BANK)
    with time_machine.travel(START + 20 * H, tick=False):
        actions.do_pause_game(game.id, anna)
    with time_machine.travel(START + 120 * H, tick=False):
        game = actions.do_resume_game(game.id, anna)
        assert game.deadline == START + 200 * H  # 80 h were left
    with time_machine.travel(START + 130 * H, tick=False):
        game = actions.do_play_move(game.id, anna, 0, ANNA_PASSES)
    # 30 h of clock time used (20 before the pause, 10 after it).
    assert bank_of(game, 0) == 100 * H - 30 * H + 36 * H


@pytest.mark.django_db
def test_a_move_while_paused_spends_only_the_time_before_the_pause(anna, bert):
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert], clock=BANK)
    with time_machine.travel(START + 4 * H, tick=False):
        actions.do_pause_game(game.id, anna)
    with time_machine.travel(START + 50 * H, tick=False):
        game = actions.do_play_move(game.id, anna, 0, ANNA_PASSES)
    assert bank_of(game, 0) == 120 * H  # 96 h left + 36 h, held at the cap


@pytest.mark.django_db
def test_a_rematch_keeps_the_clock(anna, bert):
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert], clock=BANK)
        actions.do_resign(game.id, bert, 0)
        rematch, created = actions.do_rematch(game.id, bert)
    assert created
    assert clocks.clock_json(rematch) == clocks.clock_json(game)
    assert {s.bank_seconds for s in rematch.seats.all()} == {100 * 3600}


# --- A daily deadline game --------------------------------------------------------------------


@pytest.mark.django_db
def test_a_daily_game_ends_each_turn_at_the_hosts_hour(anna, bert):
    NotificationSettings.objects.create(user=anna, time_zone="Europe/Berlin")
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert], clock={"kind": "daily", "hour": 20})
    assert (game.clock, game.daily_hour, game.daily_zone) == ("daily", 20, "Europe/Berlin")
    assert game.deadline == at(2026, 12, 8, 19, 0)  # tomorrow 20:00 Berlin
    with time_machine.travel(START + 3 * H, tick=False):  # 14:00 Berlin
        game = actions.do_play_move(game.id, anna, 0, ANNA_PASSES)
    assert game.deadline == at(2026, 12, 8, 19, 0)  # 29 h later: still tomorrow's
    assert [s.bank_seconds for s in game.seats.all()] == [None, None]


@pytest.mark.django_db
def test_a_daily_game_waits_for_a_vacation_and_keeps_its_hour(anna, bert):
    NotificationSettings.objects.create(user=anna, time_zone="Europe/Berlin")
    Vacation.objects.create(user=bert, starts_at=START, ends_at=at(2026, 12, 10, 9, 0))
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert], clock={"kind": "daily", "hour": 20})
        game = actions.do_play_move(game.id, anna, 0, ANNA_PASSES)
    # His clock starts when he is back (10:00 Berlin): 20:00 that day is only 10 h on.
    assert game.deadline == at(2026, 12, 11, 19, 0)


@pytest.mark.django_db
def test_a_daily_games_rematch_keeps_the_hour_and_zone(anna, bert):
    NotificationSettings.objects.create(user=anna, time_zone="Europe/Berlin")
    with time_machine.travel(START, tick=False):
        game = start_game([anna, bert], clock={"kind": "daily", "hour": 7})
        actions.do_resign(game.id, anna, 0)
        rematch, _ = actions.do_rematch(game.id, bert)  # Bert's zone is UTC
    assert (rematch.clock, rematch.daily_hour, rematch.daily_zone) == ("daily", 7, "Europe/Berlin")
