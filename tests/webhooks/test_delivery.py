"""Posting to a real receiver on 127.0.0.1: payload shapes, signature, retries, disabling."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games import actions
from notifications.outbox import SendOutcome
from tests.concurrency import at_once
from tests.factories import client_for, toy_move
from webhooks import delivery, signing
from webhooks.models import Webhook, WebhookDelivery
from webhooks.tasks import send_webhook_delivery

from .conftest import add_webhook, play, play_some

pytestmark = pytest.mark.django_db

Status = WebhookDelivery.Status


def test_a_move_posts_each_kind_its_shape(
    game, anna, bert, receiver, django_capture_on_commit_callbacks
):
    # Piratz's game, not the toy: the posts tell its move in its words (a reveal, P9).
    add_webhook(game, anna, "discord", receiver.url("/discord"))
    add_webhook(game, anna, "slack", receiver.url("/slack"))
    _, secret = add_webhook(game, bert, "json", receiver.url("/json"))

    # The move's commit schedules the posts (tasks run eagerly in the tests).
    with django_capture_on_commit_callbacks(execute=True):
        game = play(game, {"action": "reveal"})

    posts = {post.path: post for post in receiver.posts}
    assert set(posts) == {"/discord", "/slack", "/json"}
    discord, slack, data = posts["/discord"].json, posts["/slack"].json, posts["/json"].json
    assert set(discord) == {"content", "allowed_mentions", "flags"}
    assert discord["allowed_mentions"] == {"parse": []}
    assert discord["flags"] == 4  # SUPPRESS_EMBEDS: no preview cards of links
    assert "Anna revealed" in discord["content"]
    assert "Now it is Anna's turn." in discord["content"]  # P9: she may reveal again
    assert "https://piratz.example/games/" in discord["content"]
    assert set(slack) == {"text", "unfurl_links", "unfurl_media"}
    assert slack["unfurl_links"] is False and slack["unfurl_media"] is False
    assert "Anna revealed" in slack["text"]

    assert data["event"] == "move_applied"
    assert data["game_id"] == str(game.id)
    assert data["version"] == 1
    assert data["status"] == "active"
    assert data["seat_to_move"] == 0 and data["player_to_move"] == "Anna"
    assert data["deadline"] == game.deadline.isoformat().replace("+00:00", "Z")
    assert data["table_url"] == f"https://piratz.example/games/{game.id}/"
    assert data["players"] == [
        {"seat": 0, "name": "Anna", "label": "Anna", "role": "player"},
        {"seat": 1, "name": "Bert", "label": "Bert", "role": "player"},
        {"seat": 2, "name": "carla", "label": "carla", "role": "player"},
    ]
    assert data["move"]["action"] == {"action": "reveal"}
    assert data["move"]["actor"] == "player"
    assert data["move"]["revealed"]["id"] == game.load_state().face_up[0]
    headers = posts["/json"].headers
    assert headers["X-Piratz-Event"] == "move_applied"
    assert headers["Content-Type"] == "application/json"
    # The shown secret verifies the signature over the exact bytes received, now.
    signature = headers[signing.SIGNATURE_HEADER]
    assert signing.verify(secret, signature, posts["/json"].body, int(time.time()))
    assert not signing.verify(secret, signature, posts["/json"].body + b" ", int(time.time()))
    assert not signing.verify("whsec_other", signature, posts["/json"].body, int(time.time()))
    # A replay later than the tolerance is rejected.
    late = int(time.time()) + signing.TOLERANCE_SECONDS + 1
    assert not signing.verify(secret, signature, posts["/json"].body, late)
    # The chat kinds are not signed: they do not check it.
    assert signing.SIGNATURE_HEADER not in posts["/discord"].headers
    assert WebhookDelivery.objects.filter(status=Status.SENT).count() == 3


def test_a_moderators_forced_move_is_posted_as_such_not_as_a_passed_deadline(
    toy_game, anna, receiver, django_capture_on_commit_callbacks
):
    add_webhook(toy_game, anna, "slack", receiver.url("/slack"))
    add_webhook(toy_game, anna, "json", receiver.url("/json"))
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_force_automatic_move(
            toy_game.id, _moderator(), version=toy_game.version, reason="The player asked us to."
        )
    posts = {post.path: post.json for post in receiver.posts}
    assert posts["/json"]["move"]["actor"] == "moderator"
    assert posts["/json"]["move"]["automatic"] is True
    assert "by a moderator" in posts["/slack"]["text"]
    assert "deadline had passed" not in posts["/slack"]["text"]


def test_signature_follows_the_documented_recipe(toy_game, anna, receiver):
    """The receiver recipe of docs/webhooks.md "Signature (`json` only)", written out with
    hashlib alone."""
    import hashlib
    import hmac

    _, secret = add_webhook(toy_game, anna, "json", receiver.url())
    play_some(toy_game)
    delivery.send_due_deliveries()
    post = receiver.posts[0]
    fields = dict(part.split("=", 1) for part in post.headers["X-Piratz-Signature"].split(","))
    expected = hmac.new(
        secret.encode(), fields["t"].encode() + b"." + post.body, hashlib.sha256
    ).hexdigest()
    assert hmac.compare_digest(expected, fields["v1"])
    assert abs(time.time() - int(fields["t"])) <= 300
    # Derived, not stored: the same on every call, different per webhook, and nowhere in
    # the database row.
    webhook = Webhook.objects.get()
    assert signing.secret_for(webhook.id) == secret
    assert signing.secret_for(Webhook(game=toy_game).id) != secret
    assert secret not in str(Webhook.objects.filter(id=webhook.id).values().get())


def test_the_end_of_the_game_is_posted(toy_game, anna, receiver):
    add_webhook(toy_game, anna, "json", receiver.url())
    actions.do_abort_game(toy_game.id, _moderator(), reason="testing the end")
    delivery.send_due_deliveries()
    [post] = receiver.posts
    assert post.json["event"] == "game_ended"
    assert post.json["status"] == "aborted"
    assert post.json["end_reason"] == "moderator"
    assert post.json["seat_to_move"] is None and post.json["deadline"] is None


def test_a_server_error_is_retried_and_delivered_once(toy_game, anna, receiver, time_machine):
    time_machine.move_to(timezone.now(), tick=False)
    receiver.answers = [500]
    add_webhook(toy_game, anna, "json", receiver.url())
    play_some(toy_game)
    [row] = WebhookDelivery.objects.all()

    assert delivery.send_pending_delivery(row.id) == SendOutcome.RETRYING
    row.refresh_from_db()
    assert (row.status, row.attempts, row.last_error) == (Status.PENDING, 1, "HTTP 500")
    assert row.next_attempt_at == timezone.now() + timedelta(minutes=1)
    # Not due yet: the sweep leaves it alone.
    assert delivery.send_due_deliveries().skipped == 0
    assert len(receiver.posts) == 1

    time_machine.shift(timedelta(minutes=1))
    assert delivery.send_due_deliveries().sent == 1
    assert delivery.send_due_deliveries().sent == 0
    row.refresh_from_db()
    assert (row.status, row.attempts, row.last_error) == (Status.SENT, 2, "")
    assert len(receiver.posts) == 2  # the failed one and the delivered one
    # The retry is the same post (a receiver drops duplicates by this id).
    assert receiver.posts[0].headers["X-Piratz-Delivery"] == str(row.id)
    assert receiver.posts[0].json == receiver.posts[1].json


def test_too_many_requests_is_retried_not_counted_against_the_webhook(toy_game, anna, receiver):
    receiver.answers = [429]
    add_webhook(toy_game, anna, "discord", receiver.url())
    play_some(toy_game)
    assert delivery.send_due_deliveries().retrying == 1
    assert Webhook.objects.get().consecutive_failures == 0


def test_repeated_client_errors_disable_the_webhook_with_the_reason(
    toy_game, anna, receiver, settings
):
    settings.WEBHOOK_DISABLE_AFTER_FAILURES = 2
    receiver.answers = [404, 410]
    add_webhook(toy_game, anna, "slack", receiver.url())
    for _ in range(3):
        toy_game = play_some(toy_game)
    first, second, third = WebhookDelivery.objects.order_by("id")

    assert delivery.send_pending_delivery(first.id) == SendOutcome.FAILED  # 4xx: no retry
    webhook = Webhook.objects.get()
    assert (webhook.enabled, webhook.consecutive_failures) == (True, 1)
    assert delivery.send_pending_delivery(second.id) == SendOutcome.FAILED

    webhook.refresh_from_db()
    assert webhook.disabled_at is not None
    assert webhook.consecutive_failures == 2
    assert webhook.disabled_reason == (
        "Disabled after 2 failed deliveries in a row; the last one: HTTP 410"
    )
    # What was still queued fails with the reason, without a post.
    third.refresh_from_db()
    assert third.status == Status.FAILED
    assert third.last_error == f"The webhook was disabled: {webhook.disabled_reason}"
    assert delivery.send_due_deliveries().sent == 0
    assert len(receiver.posts) == 2
    # No more deliveries for a disabled webhook.
    play_some(toy_game)
    assert WebhookDelivery.objects.count() == 3
    # The owner sees why in the API.
    [listed] = client_for(anna).get(f"/api/games/{toy_game.id}/webhooks/").json()
    assert listed["enabled"] is False
    assert listed["disabled_reason"].endswith("HTTP 410")


def test_a_delivered_post_resets_the_failure_count(toy_game, anna, receiver):
    receiver.answers = [400, 200]
    add_webhook(toy_game, anna, "json", receiver.url())
    toy_game = play_some(toy_game)
    delivery.send_due_deliveries()
    assert Webhook.objects.get().consecutive_failures == 1
    play_some(toy_game)
    delivery.send_due_deliveries()
    assert Webhook.objects.get().consecutive_failures == 0


def test_retries_run_out(toy_game, anna, receiver, settings, time_machine):
    time_machine.move_to(timezone.now(), tick=False)
    settings.WEBHOOK_MAX_ATTEMPTS = 2
    receiver.answers = [503, 503]
    add_webhook(toy_game, anna, "json", receiver.url())
    play_some(toy_game)
    delivery.send_due_deliveries()
    time_machine.shift(timedelta(minutes=1))
    assert delivery.send_due_deliveries().failed == 1
    row = WebhookDelivery.objects.get()
    assert (row.status, row.attempts, row.last_error) == (Status.FAILED, 2, "HTTP 503")
    assert Webhook.objects.get().consecutive_failures == 1


def test_a_delivery_task_run_twice_posts_once(toy_game, anna, receiver):
    add_webhook(toy_game, anna, "json", receiver.url())
    play_some(toy_game)
    [row] = WebhookDelivery.objects.all()
    assert send_webhook_delivery(row.id) == SendOutcome.SENT
    assert send_webhook_delivery(row.id) == SendOutcome.SKIPPED
    assert delivery.send_due_deliveries().sent == 0
    assert len(receiver.posts) == 1


def test_a_stuck_claim_is_requeued_by_the_sweep(toy_game, anna, receiver, time_machine):
    time_machine.move_to(timezone.now(), tick=False)
    add_webhook(toy_game, anna, "json", receiver.url())
    play_some(toy_game)
    WebhookDelivery.objects.update(status=Status.SENDING, claimed_at=timezone.now())
    assert delivery.send_due_deliveries().requeued == 0  # its worker may still be at it
    time_machine.shift(timedelta(minutes=11))
    result = delivery.send_due_deliveries()
    assert (result.requeued, result.sent) == (1, 1)
    assert WebhookDelivery.objects.get().attempts == 2


def test_a_rolled_back_move_queues_nothing(toy_game, anna, receiver):
    add_webhook(toy_game, anna, "json", receiver.url())
    with pytest.raises(actions.ServiceError):
        actions.do_play_move(toy_game.id, anna, toy_game.version + 5, toy_move(toy_game))
    assert not WebhookDelivery.objects.exists()


def _moderator():
    from tests.factories import make_user

    return make_user("mod-hooks@example.com", is_staff=True)


@pytest.mark.postgres("SQLite serialises the claims whole, so sweeps cannot overlap")
@pytest.mark.django_db(transaction=True)
def test_concurrent_sweeps_claim_different_deliveries(toy_game, anna, bert, receiver, settings):
    """Overlapping sweeps (a second beat, a sweep longer than its minute) take posts no
    other holds (SKIP LOCKED), as the email outbox's do: each posted once, no claim lost."""
    settings.OUTBOX_EAGER_SEND_ON_COMMIT = False  # the moves' commits leave them to the sweep
    add_webhook(toy_game, anna, "json", receiver.url("/anna"))
    add_webhook(toy_game, bert, "json", receiver.url("/bert"))
    for _ in range(6):  # the first free cells, in turn: X wins at the 7th, not before
        toy_game = play_some(toy_game)
    pending = WebhookDelivery.objects.filter(status=Status.PENDING).count()
    assert pending == 12

    results = at_once([delivery.send_due_deliveries] * 4)

    assert sum(result.sent for result in results) == pending
    assert sum(result.skipped for result in results) == 0
    posted = [(post.path, post.json["version"]) for post in receiver.posts]
    assert len(posted) == len(set(posted)) == pending
