"""The person's email preferences as pure logic: kinds, quiet hours, digest time, vacations.

No database: everything runs on unsaved ``NotificationSettings`` instances and plain
datetimes.
"""

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from accounts import preferences, schedule
from accounts.models import NotificationSettings
from accounts.schedule import EmailKind

BERLIN = ZoneInfo("Europe/Berlin")


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def berlin(*args, fold=0) -> datetime:
    return datetime(*args, tzinfo=BERLIN, fold=fold)


def quiet(start: str, end: str, zone: str = "Europe/Berlin") -> NotificationSettings:
    return NotificationSettings(
        time_zone=zone, quiet_start=time.fromisoformat(start), quiet_end=time.fromisoformat(end)
    )


# --- wants --------------------------------------------------------------------------------

# Every kind, and whether each mode lets it through (nothing unsubscribed).
WANTS = {
    EmailKind.YOUR_TURN: {"each_turn": True, "digest": False, "off": False},
    EmailKind.REMINDER: {"each_turn": True, "digest": False, "off": False},
    EmailKind.DIGEST: {"each_turn": False, "digest": True, "off": False},
    EmailKind.AUTO_MOVED: {"each_turn": True, "digest": True, "off": True},
    EmailKind.GAME_STARTED: {"each_turn": True, "digest": True, "off": True},
    EmailKind.GAME_OVER: {"each_turn": True, "digest": True, "off": True},
    EmailKind.GAME_ENDED: {"each_turn": True, "digest": True, "off": True},
    EmailKind.INVITATION: {"each_turn": True, "digest": True, "off": True},
    EmailKind.GAME_CANCELLED: {"each_turn": True, "digest": True, "off": True},
    EmailKind.LOGIN_LINK: {"each_turn": True, "digest": True, "off": True},
    # Only for those who chose it (talk_emails), in every mode: see the test below.
    EmailKind.TABLE_TALK: {"each_turn": False, "digest": False, "off": False},
    EmailKind.FOLLOWED: {"each_turn": True, "digest": True, "off": True},
}


def test_the_table_covers_every_kind_and_mode():
    assert set(WANTS) == set(EmailKind)
    assert all(set(row) == set(NotificationSettings.Mode.values) for row in WANTS.values())


@pytest.mark.parametrize("kind", list(EmailKind))
@pytest.mark.parametrize("mode", NotificationSettings.Mode.values)
def test_each_mode_lets_through_its_kinds(kind, mode):
    assert NotificationSettings(mode=mode).wants(kind) is WANTS[kind][mode]


@pytest.mark.parametrize("mode", NotificationSettings.Mode.values)
def test_table_talk_emails_go_in_every_mode_to_those_who_chose_them(mode):
    assert NotificationSettings(mode=mode, talk_emails=True).wants(EmailKind.TABLE_TALK)
    chose_then_unsubscribed = NotificationSettings(
        mode=mode, talk_emails=True, unsubscribed=["table_talk"]
    )
    assert not chose_then_unsubscribed.wants(EmailKind.TABLE_TALK)


@pytest.mark.parametrize("kind", schedule.UNSUBSCRIBABLE_KINDS)
@pytest.mark.parametrize("mode", NotificationSettings.Mode.values)
def test_an_unsubscribed_kind_never_goes_out(kind, mode):
    assert NotificationSettings(mode=mode, unsubscribed=[str(kind)]).wants(kind) is False


@pytest.mark.parametrize("kind", sorted(schedule.TRANSACTIONAL_KINDS))
def test_transactional_kinds_go_out_even_if_listed_as_unsubscribed(kind):
    assert NotificationSettings(mode="off", unsubscribed=[str(kind)]).wants(kind) is True


def test_unsubscribing_one_kind_leaves_the_others():
    settings = NotificationSettings(unsubscribed=["reminder"])
    assert settings.wants("your_turn") and settings.wants("game_over")


def test_an_unknown_kind_is_an_error_not_a_silent_email():
    with pytest.raises(ValueError, match="no_such_kind"):
        NotificationSettings().wants("no_such_kind")


def test_only_notifications_can_be_unsubscribed():
    assert set(schedule.UNSUBSCRIBABLE_KINDS) == set(EmailKind) - {
        EmailKind.INVITATION,
        EmailKind.GAME_CANCELLED,
        EmailKind.LOGIN_LINK,
    }


# --- time zones ---------------------------------------------------------------------------


def test_zone_is_the_named_zone():
    assert NotificationSettings(time_zone="America/New_York").zone == ZoneInfo("America/New_York")


def test_an_unknown_stored_zone_falls_back_to_utc():
    assert NotificationSettings(time_zone="Mars/Olympus").zone == ZoneInfo("UTC")


@pytest.mark.parametrize(
    ("name", "known"),
    [("Europe/Berlin", True), ("UTC", True), ("Mars/Olympus", False), ("../etc/passwd", False)],
)
def test_is_time_zone(name, known):
    assert schedule.is_time_zone(name) is known


# --- quiet hours --------------------------------------------------------------------------


def test_no_quiet_hours_means_any_moment_is_fine():
    moment = utc(2026, 1, 10, 3, 0)
    assert NotificationSettings().quiet_until(moment) == moment


def test_outside_quiet_hours_the_moment_itself():
    moment = berlin(2026, 1, 10, 12, 0).astimezone(UTC)
    assert quiet("23:00", "07:00").quiet_until(moment) == moment


def test_late_evening_waits_for_the_next_morning():
    # 23:30 Berlin (CET, +1) on Jan 10 -> 07:00 Berlin on Jan 11 = 06:00 UTC.
    moment = berlin(2026, 1, 10, 23, 30).astimezone(UTC)
    assert quiet("23:00", "07:00").quiet_until(moment) == utc(2026, 1, 11, 6, 0)


def test_early_morning_waits_for_the_same_morning():
    moment = berlin(2026, 1, 11, 3, 0).astimezone(UTC)
    assert quiet("23:00", "07:00").quiet_until(moment) == utc(2026, 1, 11, 6, 0)


def test_quiet_hours_start_inclusive_end_exclusive():
    settings = quiet("23:00", "07:00")
    start = berlin(2026, 1, 10, 23, 0).astimezone(UTC)
    end = berlin(2026, 1, 11, 7, 0).astimezone(UTC)
    assert settings.quiet_until(start) == end
    assert settings.quiet_until(end) == end
    just_before = start - timedelta(seconds=1)
    assert settings.quiet_until(just_before) == just_before


def test_quiet_hours_within_one_day():
    settings = quiet("13:00", "15:00", zone="UTC")
    assert settings.quiet_until(utc(2026, 5, 1, 14, 0)) == utc(2026, 5, 1, 15, 0)
    assert settings.quiet_until(utc(2026, 5, 1, 16, 0)) == utc(2026, 5, 1, 16, 0)
    assert settings.quiet_until(utc(2026, 5, 1, 12, 0)) == utc(2026, 5, 1, 12, 0)


def test_equal_start_and_end_is_no_quiet_time():
    moment = utc(2026, 5, 1, 8, 0)
    assert quiet("08:00", "08:00", zone="UTC").quiet_until(moment) == moment


def test_quiet_hours_are_read_on_the_persons_clock_not_utc():
    # 22:30 UTC is 23:30 in Berlin in winter: quiet there, not in UTC.
    moment = utc(2026, 1, 10, 22, 30)
    assert quiet("23:00", "07:00", zone="UTC").quiet_until(moment) == moment
    assert quiet("23:00", "07:00").quiet_until(moment) == utc(2026, 1, 11, 6, 0)


def test_spring_forward_night_ends_on_the_local_clock():
    # Berlin jumps from 02:00 CET to 03:00 CEST on 2026-03-29. Quiet 23:00-07:00 from
    # 23:30 CET on the 28th ends at 07:00 CEST = 05:00 UTC (7h30 later, not 8h30).
    moment = berlin(2026, 3, 28, 23, 30).astimezone(UTC)
    assert quiet("23:00", "07:00").quiet_until(moment) == utc(2026, 3, 29, 5, 0)


def test_fall_back_night_ends_on_the_local_clock():
    # Berlin falls back from 03:00 CEST to 02:00 CET on 2026-10-25: 07:00 CET = 06:00 UTC.
    moment = berlin(2026, 10, 24, 23, 30).astimezone(UTC)
    assert quiet("23:00", "07:00").quiet_until(moment) == utc(2026, 10, 25, 6, 0)


def test_an_end_skipped_by_the_clock_is_reached_at_the_jump():
    # Quiet until 02:30, on the night the clock jumps from 02:00 to 03:00: it ends at the
    # jump (01:00 UTC), when the clock first reads later than 02:30.
    moment = berlin(2026, 3, 29, 1, 30).astimezone(UTC)
    assert quiet("23:00", "02:30").quiet_until(moment) == utc(2026, 3, 29, 1, 0)


def test_an_end_that_happens_twice_is_the_next_one():
    settings = quiet("01:00", "02:30")
    # 02:10 CEST (first pass, 00:10 UTC): quiet ends at 02:30 CEST = 00:30 UTC.
    first_pass = berlin(2026, 10, 25, 2, 10).astimezone(UTC)
    assert first_pass == utc(2026, 10, 25, 0, 10)
    assert settings.quiet_until(first_pass) == utc(2026, 10, 25, 0, 30)
    # 02:10 CET (second pass, 01:10 UTC): the clock reads 02:30 again at 01:30 UTC.
    second_pass = berlin(2026, 10, 25, 2, 10, fold=1).astimezone(UTC)
    assert second_pass == utc(2026, 10, 25, 1, 10)
    assert settings.quiet_until(second_pass) == utc(2026, 10, 25, 1, 30)


def test_quiet_until_answers_in_utc():
    moment = berlin(2026, 1, 10, 23, 30)  # an aware non-UTC moment is fine too
    assert quiet("23:00", "07:00").quiet_until(moment).utcoffset() == timedelta(0)


# --- digest time ---------------------------------------------------------------------------


def digest(hour: int, zone: str = "Europe/Berlin", mode: str = "digest") -> NotificationSettings:
    return NotificationSettings(mode=mode, digest_hour=hour, time_zone=zone)


def test_no_digest_time_unless_in_digest_mode():
    assert digest(8, mode="each_turn").next_digest_after(utc(2026, 1, 1)) is None
    assert digest(8, mode="off").next_digest_after(utc(2026, 1, 1)) is None


def test_next_digest_is_later_today_or_tomorrow_on_the_local_clock():
    settings = digest(8)
    assert settings.next_digest_after(utc(2026, 1, 10, 5, 0)) == utc(2026, 1, 10, 7, 0)
    assert settings.next_digest_after(utc(2026, 1, 10, 7, 0)) == utc(2026, 1, 11, 7, 0)
    assert settings.next_digest_after(utc(2026, 7, 10, 7, 0)) == utc(2026, 7, 11, 6, 0)


def test_digest_hour_skipped_by_the_clock_goes_out_at_the_jump():
    settings = digest(2)
    assert settings.next_digest_after(utc(2026, 3, 28, 12, 0)) == utc(2026, 3, 29, 1, 0)


def test_a_repeated_digest_hour_sends_only_one_digest_that_day():
    settings = digest(2)
    first = settings.next_digest_after(utc(2026, 10, 24, 12, 0))
    assert first == utc(2026, 10, 25, 0, 0)  # 02:00 CEST
    # After the first one, the next is the following day, not 02:00 CET an hour later.
    assert settings.next_digest_after(first) == utc(2026, 10, 26, 1, 0)


# --- vacations ------------------------------------------------------------------------------

NOW = utc(2026, 6, 1, 12, 0)


def days(n: float) -> timedelta:
    return timedelta(days=n)


def test_merge_intervals_joins_overlapping_and_touching():
    a, b, c, d = (NOW + days(n) for n in (0, 1, 2, 3))
    assert preferences.merge_intervals([(c, d), (a, b), (b, c)]) == [(a, d)]
    assert preferences.merge_intervals([(c, d), (a, b)]) == [(a, b), (c, d)]
    assert preferences.merge_intervals([(a, d), (b, c)]) == [(a, d)]


def test_busiest_year_counts_the_densest_365_days():
    # 10 days, then 10 days 300 days later, then 10 days 400 days after the first:
    # a window holds at most two of them (20 days).
    vacations = [(NOW + days(n), NOW + days(n + 10)) for n in (0, 300, 400)]
    assert preferences.busiest_year(vacations) == days(20)


def test_busiest_year_counts_partial_overlap():
    # 20 days, and 10 days starting 360 days after the first one's start: the window
    # [day 5, day 370) holds 15 + 10 days.
    vacations = [(NOW, NOW + days(20)), (NOW + days(360), NOW + days(370))]
    assert preferences.busiest_year(vacations) == days(25)


def test_a_new_vacation_is_judged_by_every_year_it_is_part_of():
    # 40 days taken long ago (under a larger allowance): a window ending with the new
    # 5 days, [day 20, day 385), holds 20 + 5 days, though no window starting on an
    # edge and touching the new one holds more than 15.
    old, new = (NOW, NOW + days(40)), (NOW + days(380), NOW + days(385))
    assert preferences.busiest_year([old, new], touching=new) == days(25)


@pytest.mark.parametrize(
    ("start", "end", "wall", "quiet"),
    [
        ("13:00", "15:00", "13:00", True),
        ("13:00", "15:00", "14:59", True),
        ("13:00", "15:00", "15:00", False),
        ("13:00", "15:00", "12:59", False),
        ("23:00", "07:00", "23:00", True),
        ("23:00", "07:00", "00:00", True),
        ("23:00", "07:00", "07:00", False),
        ("23:00", "07:00", "22:59", False),
        ("08:00", "08:00", "08:00", False),
    ],
)
def test_in_quiet_hours_from_start_up_to_end(start, end, wall, quiet):
    assert schedule.in_quiet_hours(*map(time.fromisoformat, (start, end, wall))) is quiet


def problem(new, existing=(), days_per_year=21):
    return preferences.vacation_problem(new, list(existing), NOW, days_per_year)


def test_a_vacation_within_the_allowance_is_fine():
    assert problem((NOW + days(1), NOW + days(22))) is None


def test_a_vacation_beyond_the_allowance_is_refused():
    assert "allowance of 21 days" in problem((NOW + days(1), NOW + days(22) + timedelta(seconds=1)))


def test_the_allowance_counts_the_other_vacations_of_the_year():
    taken = [(NOW - days(100), NOW - days(90))]  # 10 days, 100 days ago
    assert problem((NOW + days(1), NOW + days(12)), taken) is None
    assert "allowance" in problem((NOW + days(1), NOW + days(13)), taken)
    # A year and more after the first, its days no longer count.
    assert problem((NOW + days(280), NOW + days(300)), taken) is None


def test_a_vacation_must_end_after_it_starts():
    assert "end after it starts" in problem((NOW + days(2), NOW + days(1)))
    assert "end after it starts" in problem((NOW + days(2), NOW + days(2)))


def test_a_vacation_already_over_is_refused():
    assert "over already" in problem((NOW - days(3), NOW - days(1)))


def test_a_vacation_more_than_a_year_ahead_is_refused():
    assert "a year ahead" in problem((NOW + days(366), NOW + days(367)))


def test_overlapping_vacations_are_refused():
    taken = [(NOW + days(5), NOW + days(10))]
    assert "overlaps" in problem((NOW + days(9), NOW + days(12)), taken)
    assert "overlaps" in problem((NOW + days(1), NOW + days(6)), taken)
    assert problem((NOW + days(10), NOW + days(12)), taken) is None  # back to back is fine


# --- reminder leads ---------------------------------------------------------------------------


@pytest.mark.parametrize("leads", [[], [24], [24, 2], [720, 1, 48]])
def test_acceptable_reminder_leads(leads):
    assert preferences.reminder_leads_problem(leads) is None


@pytest.mark.parametrize(
    ("leads", "message"),
    [
        ([1, 2, 3, 4], "at most 3"),
        ("24", "at most 3"),
        ([0], "between 1 and 720"),
        ([721], "between 1 and 720"),
        ([-2], "between 1 and 720"),
        ([2.5], "whole numbers"),
        ([True], "whole numbers"),
        (["24"], "whole numbers"),
        ([24, 24], "only once"),
    ],
)
def test_unacceptable_reminder_leads(leads, message):
    assert message in preferences.reminder_leads_problem(leads)
