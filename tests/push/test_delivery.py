"""Push messages the whole way: a move queues them, a worker encrypts and posts them to a
push service of our own on 127.0.0.1, which decrypts them (RFC 8291) with the device's
private key and checks the VAPID token (RFC 8292); retries are recorded as attempts; a
404 or 410 removes the subscription."""

import time

import pytest
from django.utils import timezone

from accounts.preferences import do_update_settings
from notifications.delivery import SendOutcome
from notifications.models import OutboundEmail
from push import delivery
from push.models import PushDelivery, PushSubscription
from tests.factories import make_user, start_game

from .conftest import Device, verify_vapid

pytestmark = pytest.mark.django_db

Status = PushDelivery.Status


def _choose(user, **channels):
    do_update_settings(user, {"channels": channels}, now=timezone.now())


@pytest.fixture
def players(vapid):
    return [
        make_user(f"{name}@example.com", display_name=name.title()) for name in ("anna", "bert")
    ]


def test_a_turn_goes_by_push_alone_encrypted_and_signed(
    players, vapid, push_service, django_capture_on_commit_callbacks
):
    anna, bert = players
    devices = {user.pk: Device() for user in players}
    for user in players:
        _choose(user, your_turn="push")
        devices[user.pk].subscribe(user, push_service.url(f"/device/{user.pk}"))

    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(players)

    to_move = game.seats.get(seat=game.current_seat).user
    [pushed] = push_service.posts
    assert pushed.path == f"/device/{to_move.pk}"
    assert pushed.headers["content-encoding"] == "aes128gcm"
    assert int(pushed.headers["ttl"]) > 0 and pushed.headers["urgency"] == "high"
    payload = devices[to_move.pk].decrypt(pushed.body)
    other = bert if to_move == anna else anna
    assert payload == {
        "title": "Your turn in Piratz",
        "body": f"A game with {other.public_name}. Open it to see the table.",
        "url": f"https://piratz.example/games/{game.id}/",
    }
    claims = verify_vapid(pushed.headers, vapid, push_service.origin)
    assert claims["sub"] == "mailto:ops@piratz.example"
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    # Push alone: no turn email; the news of the start still comes by email.
    assert not OutboundEmail.objects.filter(to=to_move.email, template="your_turn").exists()
    assert OutboundEmail.objects.filter(to=to_move.email, template="game_started").exists()
    row = PushDelivery.objects.get()
    assert row.status == Status.SENT and row.attempts == 1
    assert PushSubscription.objects.get(user=to_move).last_used_at == row.sent_at


def test_both_sends_the_email_too_and_push_without_a_device_falls_back_to_email(
    players, vapid, push_service, django_capture_on_commit_callbacks
):
    anna, bert = players
    for user in players:
        _choose(user, your_turn="both", game_started="push")
    Device().subscribe(anna, push_service.url("/anna"))  # bert has no device

    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(players)

    assert "/anna" in {pushed.path for pushed in push_service.posts}
    # Bert chose push for the start but has no device: he gets the email all the same.
    assert OutboundEmail.objects.filter(to=bert.email, template="game_started").exists()
    assert not OutboundEmail.objects.filter(to=anna.email, template="game_started").exists()
    to_move = game.seats.get(seat=game.current_seat).user
    assert OutboundEmail.objects.filter(to=to_move.email, template="your_turn").exists()
    assert PushDelivery.objects.filter(user=anna, kind="game_started").exists()


def test_retries_are_recorded_as_attempts_then_sent(players, vapid, push_service):
    anna = players[0]
    _choose(anna, game_started="push")
    Device().subscribe(anna, push_service.url("/anna"))
    push_service.answers = [503, 429]
    start_game(players)  # no on-commit run: the worker is driven by hand below
    row = PushDelivery.objects.get(user=anna)

    assert delivery.send_pending_delivery(row.pk) == SendOutcome.RETRYING
    row.refresh_from_db()
    assert (row.status, row.attempts, row.last_error) == (Status.PENDING, 1, "HTTP 503")
    PushDelivery.objects.filter(pk=row.pk).update(next_attempt_at=row.created_at)
    assert delivery.send_pending_delivery(row.pk) == SendOutcome.RETRYING
    PushDelivery.objects.filter(pk=row.pk).update(next_attempt_at=row.created_at)
    assert delivery.send_pending_delivery(row.pk) == SendOutcome.SENT
    row.refresh_from_db()
    assert (row.status, row.attempts, row.last_error) == (Status.SENT, 3, "")
    assert len(push_service.posts) == 3


@pytest.mark.parametrize("answer", [404, 410])
def test_a_gone_subscription_is_removed(players, vapid, push_service, answer):
    anna = players[0]
    _choose(anna, game_started="push")
    Device().subscribe(anna, push_service.url("/anna"))
    push_service.answers = [answer]
    start_game(players)
    row = PushDelivery.objects.get(user=anna)

    assert delivery.send_pending_delivery(row.pk) == SendOutcome.FAILED
    row.refresh_from_db()
    assert row.status == Status.FAILED and row.attempts == 1
    assert f"HTTP {answer}" in row.last_error and row.subscription_id is None
    assert not PushSubscription.objects.filter(user=anna).exists()
    # The kept row fails unsent should it be tried again; nothing more is posted.
    assert len(push_service.posts) == 1


def test_a_permanent_refusal_keeps_the_subscription(players, vapid, push_service):
    anna = players[0]
    _choose(anna, game_started="push")
    Device().subscribe(anna, push_service.url("/anna"))
    push_service.answers = [400]
    start_game(players)
    row = PushDelivery.objects.get(user=anna)
    assert delivery.send_pending_delivery(row.pk) == SendOutcome.FAILED
    assert PushSubscription.objects.filter(user=anna).exists()


def test_no_vapid_keys_no_push(players, settings, push_service):
    anna = players[0]
    _choose(anna, game_started="push")
    Device().subscribe(anna, push_service.url("/anna"))
    settings.VAPID_PRIVATE_KEY = ""
    start_game(players)
    assert not PushDelivery.objects.exists()
    assert OutboundEmail.objects.filter(to=anna.email, template="game_started").exists()
