"""Seeks and the pairing worker against the database: posting (and replacing), the limits,
withdrawing, expiry, the worker end to end on the toy game and on Piratz through the
catalogue, blocks, suspensions and a deleted account."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from accounts import erasure, personal_data
from core.errors import ServiceError
from games.models import Game, GameStatus
from moderation.actions import do_suspend_user
from notifications.models import OutboundEmail
from people.models import Block
from quickmatch import actions
from quickmatch.models import Seek, SeekStatus
from ratings.models import Rating
from tests.factories import TOY_KIND

pytestmark = pytest.mark.django_db


def post(user, game=TOY_KIND, players=2, **terms) -> Seek:
    terms.setdefault("turn_hours_min", 24)
    terms.setdefault("turn_hours_max", 72)
    return actions.do_post_seek(user, game=game, players=players, **terms)


def refusal(call) -> ServiceError:
    with pytest.raises(ServiceError) as raised:
        call()
    return raised.value


def test_two_compatible_seeks_start_one_public_game_with_every_seat_taken(
    toy_games, anna, bert, django_capture_on_commit_callbacks
):
    first = post(anna, turn_hours_min=12, turn_hours_max=48, rated=False)
    assert actions.pair_waiting_seeks() == 0  # alone: it waits
    # The new seek asks the worker after commit (an eager task in the tests).
    with django_capture_on_commit_callbacks(execute=True):
        second = post(bert, turn_hours_min=24, turn_hours_max=96, rated=False)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == second.status == SeekStatus.MATCHED
    game = Game.objects.get()
    assert first.game_id == second.game_id == game.id
    assert game.status == GameStatus.ACTIVE and game.public and not game.rated
    assert game.turn_hours == 36  # the middle of 24-48, the hours both accept
    assert game.host_id == anna.pk  # the longest-waiting seeker holds the chair
    assert sorted(s.user_id for s in game.seats.all()) == sorted([anna.pk, bert.pk])
    assert all(s.accepted_at for s in game.seats.all())
    # Both are told the game started, as for any game.
    started = OutboundEmail.objects.filter(template="game_started")
    assert sorted(started.values_list("to", flat=True)) == [anna.email, bert.email]
    # Run again, the worker starts nothing more.
    assert actions.pair_waiting_seeks() == 0 and Game.objects.count() == 1


def test_piratz_for_three_through_the_catalogue_rated_as_asked(anna, bert, carla):
    for person in (anna, bert, carla):
        post(person, game="piratz", players=3, rated=True)
    assert actions.pair_waiting_seeks() == 1
    game = Game.objects.get()
    assert game.game == "piratz" and game.rated and game.public
    assert game.seats.count() == 3 and game.stand_in_bots
    assert Seek.objects.filter(status=SeekStatus.MATCHED, game=game).count() == 3


def test_different_terms_wait_apart(toy_games, anna, bert, carla):
    post(anna, rated=True)
    post(bert, rated=False)
    post(carla, players=3)
    assert actions.pair_waiting_seeks() == 0
    assert set(Seek.objects.values_list("status", flat=True)) == {SeekStatus.WAITING}


def test_ratings_far_apart_wait_until_the_window_has_widened(toy_games, anna, bert, settings):
    settings.SEEK_WIDENING_PER_MINUTE = 10
    Rating.objects.create(user=anna, kind=TOY_KIND, mu=40.0, sigma=2.0, updated_at=timezone.now())
    far = Rating.objects.get(user=anna).display
    assert far > 1500 + 200
    post(anna, rating_range=0)
    post(bert, rating_range=far - 1500)  # bert reaches anna; anna reaches nobody yet
    assert actions.pair_waiting_seeks() == 0
    minutes = (far - 1500) // 10 + 1
    with time_machine.travel(timezone.now() + timedelta(minutes=minutes), tick=False):
        assert actions.pair_waiting_seeks() == 1


def test_blocked_people_are_never_paired(toy_games, anna, bert, carla):
    Block.objects.create(blocker=bert, blocked=anna)
    post(anna)
    post(bert)
    assert actions.pair_waiting_seeks() == 0
    post(carla)
    assert actions.pair_waiting_seeks() == 1
    game = Game.objects.get()
    assert bert.pk not in {s.user_id for s in game.seats.all()}


def test_a_block_made_after_the_read_stops_the_table(toy_games, anna, bert, monkeypatch):
    post(anna)
    post(bert)
    real = actions.any_blocked

    def blocked_meanwhile(ids):
        Block.objects.get_or_create(blocker=anna, blocked=bert)
        return real(ids)

    monkeypatch.setattr(actions, "any_blocked", blocked_meanwhile)
    assert actions.pair_waiting_seeks() == 0
    assert not Game.objects.exists()
    assert Seek.objects.filter(status=SeekStatus.WAITING).count() == 2


def test_a_new_seek_for_the_same_game_replaces_the_waiting_one(toy_games, anna):
    old = post(anna)
    new = post(anna, turn_hours_min=1, turn_hours_max=2)
    old.refresh_from_db()
    assert old.status == SeekStatus.WITHDRAWN and old.ended_at is not None
    assert new.status == SeekStatus.WAITING
    assert Seek.objects.filter(user=anna, status=SeekStatus.WAITING).count() == 1
    # Another game's seek waits beside it.
    post(anna, game="piratz")
    assert Seek.objects.filter(user=anna, status=SeekStatus.WAITING).count() == 2


def test_withdraw_and_what_cannot_be_withdrawn(toy_games, anna, bert, carla):
    seek = post(anna)
    assert refusal(lambda: actions.do_withdraw_seek(bert, seek.id)).code == "not_found"
    assert actions.do_withdraw_seek(anna, seek.id).status == SeekStatus.WITHDRAWN
    assert refusal(lambda: actions.do_withdraw_seek(anna, seek.id)).code == "conflict"
    # A withdrawn seek is never paired.
    post(bert)
    assert actions.pair_waiting_seeks() == 0
    post(carla)
    actions.pair_waiting_seeks()
    matched = Seek.objects.get(user=bert)
    assert matched.status == SeekStatus.MATCHED
    error = refusal(lambda: actions.do_withdraw_seek(bert, matched.id))
    assert error.code == "conflict" and "found its game" in error.detail


def test_seeks_expire_after_seek_hours_and_are_not_paired(toy_games, anna, bert, settings):
    settings.SEEK_HOURS = 2
    seek = post(anna)
    assert seek.expires_at == seek.created_at + timedelta(hours=2)
    with time_machine.travel(timezone.now() + timedelta(hours=2, minutes=1), tick=False):
        post(bert)
        assert actions.pair_waiting_seeks() == 0
        seek.refresh_from_db()
        assert seek.status == SeekStatus.EXPIRED
        assert actions.expire_due_seeks() == 0  # once
    assert not Game.objects.exists()


def test_suspended_people_cannot_seek_and_are_not_paired(toy_games, anna, bert, moderator):
    post(anna)
    post(bert)
    do_suspend_user(moderator, bert, "spam")
    assert actions.pair_waiting_seeks() == 0
    error = refusal(lambda: post(bert))
    assert error.code == "suspended"


def test_seeks_per_hour(toy_games, anna, settings):
    settings.SEEKS_PER_HOUR = 2
    post(anna)
    post(anna)
    assert refusal(lambda: post(anna)).code == "throttled"
    assert Seek.objects.filter(user=anna).count() == 2
    with time_machine.travel(timezone.now() + timedelta(minutes=61), tick=False):
        post(anna)


@pytest.mark.parametrize(
    "terms",
    [
        {"game": "chess"},
        {"players": 5},
        {"players": 4},  # the toy game seats 2 or 3
        {"turn_hours_min": 0},
        {"turn_hours_max": 721},
        {"turn_hours_min": 48, "turn_hours_max": 24},
        {"rating_range": -1},
        {"rating_range": 1001},
        {"rated": "yes"},
    ],
)
def test_terms_no_seek_can_have_are_refused(toy_games, anna, terms):
    error = refusal(lambda: post(anna, **terms))
    assert error.code == "invalid"
    assert not Seek.objects.exists()


def test_a_deleted_account_withdraws_its_seeks_and_the_export_lists_them(toy_games, anna, bert):
    post(anna)
    files = personal_data.export_files(anna)
    assert files["quickmatch_seeks.json"][0]["status"] == "waiting"
    erasure.erase_user(anna.pk)
    assert Seek.objects.get(user=anna).status == SeekStatus.WITHDRAWN
    post(bert)
    assert actions.pair_waiting_seeks() == 0
