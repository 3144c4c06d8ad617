"""The daily digest sweep: once a day at the player's local hour, listing the games waiting."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from accounts.models import NotificationSettings
from games import actions
from games.models import Game
from games.sweeps import _send_digest, send_due_digests
from notifications.models import OutboundEmail
from tests.factories import start_game

pytestmark = pytest.mark.django_db

H = timedelta(hours=1)
START = datetime(2026, 10, 20, 12, 0, tzinfo=UTC)  # Tuesday 14:00 in Berlin (CEST)


def digests_to(user) -> list[OutboundEmail]:
    return [
        row.rendered() for row in OutboundEmail.objects.filter(template="digest", to=user.email)
    ]


def sweep_at(moment: datetime) -> int:
    with time_machine.travel(moment, tick=False):
        return send_due_digests()


def digest_settings(user, *, hour=8, zone="Europe/Berlin") -> NotificationSettings:
    prefs = NotificationSettings(user=user, mode="digest", digest_hour=hour, time_zone=zone)
    prefs.next_digest_at = prefs.next_digest_after(START)
    prefs.save()
    return prefs


@pytest.fixture
def waiting(anna, bert, carla) -> list[Game]:
    """Two games in which Anna is to move, one in which she waits for Bert."""
    with time_machine.travel(START, tick=False):
        first = start_game([anna, bert])
        second = start_game([anna, carla], turn_hours=24)
        theirs = start_game([bert, anna])
    return [first, second, theirs]


def test_the_digest_goes_out_at_the_local_hour_once_listing_the_games_waiting(waiting, anna):
    prefs = digest_settings(anna)
    assert prefs.next_digest_at == datetime(2026, 10, 21, 6, 0, tzinfo=UTC)  # 08:00 CEST

    assert sweep_at(datetime(2026, 10, 21, 5, 59, tzinfo=UTC)) == 0
    assert sweep_at(datetime(2026, 10, 21, 6, 0, tzinfo=UTC)) == 1
    assert sweep_at(datetime(2026, 10, 21, 6, 5, tzinfo=UTC)) == 0  # the next sweep
    (email,) = digests_to(anna)
    # The game with 24-hour turns comes first (earlier deadline); Bert's game is not listed.
    assert email.body_text.index("with carla") < email.body_text.index("with Bert")
    assert email.body_text.count("/enter/") == 2


def test_the_next_digest_follows_the_local_hour_across_the_dst_change(waiting, anna):
    digest_settings(anna)
    sweep_at(datetime(2026, 10, 24, 6, 0, tzinfo=UTC))  # Saturday 08:00 CEST
    prefs = NotificationSettings.objects.get(user=anna)
    # Clocks go back on Sunday 25 October: 08:00 CET is 07:00 UTC.
    assert prefs.next_digest_at == datetime(2026, 10, 25, 7, 0, tzinfo=UTC)
    assert sweep_at(datetime(2026, 10, 25, 6, 30, tzinfo=UTC)) == 0
    assert sweep_at(datetime(2026, 10, 25, 7, 0, tzinfo=UTC)) == 1
    assert len(digests_to(anna)) == 2


def test_a_sweep_that_was_down_sends_one_digest_and_schedules_the_next_day(waiting, anna):
    digest_settings(anna)
    assert sweep_at(datetime(2026, 10, 23, 12, 0, tzinfo=UTC)) == 1
    assert sweep_at(datetime(2026, 10, 23, 12, 1, tzinfo=UTC)) == 0
    assert NotificationSettings.objects.get(user=anna).next_digest_at == datetime(
        2026, 10, 24, 6, 0, tzinfo=UTC
    )


def test_nothing_waiting_means_no_email_but_the_next_day_is_scheduled(bert, carla, anna):
    with time_machine.travel(START, tick=False):
        start_game([bert, anna])
    digest_settings(anna)
    assert sweep_at(datetime(2026, 10, 21, 6, 0, tzinfo=UTC)) == 0
    assert digests_to(anna) == []
    assert NotificationSettings.objects.get(user=anna).next_digest_at == datetime(
        2026, 10, 22, 6, 0, tzinfo=UTC
    )


def test_a_game_the_player_moved_in_leaves_the_digest(waiting, anna):
    digest_settings(anna)
    with time_machine.travel(START + H, tick=False):
        actions.do_play_move(
            waiting[1].id, anna, 0, {"action": "pass", "treasure": "rings", "bury": None}
        )
    sweep_at(datetime(2026, 10, 21, 6, 0, tzinfo=UTC))
    (email,) = digests_to(anna)
    assert email.body_text.count("/enter/") == 1


def test_two_sweeps_claiming_the_same_digest_send_it_once(waiting, anna):
    prefs = digest_settings(anna)
    moment = datetime(2026, 10, 21, 6, 0, tzinfo=UTC)
    with time_machine.travel(moment, tick=False):
        first = _send_digest(prefs.id, prefs.next_digest_at, moment)
        second = _send_digest(prefs.id, prefs.next_digest_at, moment)
    assert (first, second) == (1, 0)
    assert len(digests_to(anna)) == 1


def test_players_in_each_turn_mode_get_no_digest(waiting, anna):
    NotificationSettings.objects.create(
        user=anna, next_digest_at=datetime(2026, 10, 21, 6, 0, tzinfo=UTC)
    )
    assert sweep_at(datetime(2026, 10, 22, 6, 0, tzinfo=UTC)) == 0
    assert digests_to(anna) == []
