"""A slow endpoint holds a worker for one post's total time at most, never longer."""

import time

import pytest

from core.outbound.transport import DeliveryError
from notifications.outbox import SendOutcome
from webhooks import delivery
from webhooks.models import WEBHOOK_POSTS, WebhookDelivery

from .conftest import add_webhook, play

pytestmark = pytest.mark.django_db


def test_a_post_to_a_trickling_endpoint_gives_up_at_its_total_timeout(tarpit):
    """Each byte comes well within the per-read timeout; the total still ends the post."""
    started = time.monotonic()
    with pytest.raises(DeliveryError) as failed:
        WEBHOOK_POSTS.post(tarpit.url(), b"{}", {}, timeout=2, total_timeout=1.5)
    elapsed = time.monotonic() - started
    assert 1.5 <= elapsed < 3
    assert not failed.value.permanent
    assert "TimeoutError" in str(failed.value)
    assert "within 1.5 s" in str(failed.value)


def test_a_delivery_to_a_trickling_endpoint_is_a_failed_attempt_to_retry(
    game, anna, tarpit, settings
):
    settings.WEBHOOK_TOTAL_TIMEOUT_SECONDS = 2
    add_webhook(game, anna, "json", tarpit.url())
    settings.OUTBOX_EAGER_SEND_ON_COMMIT = False  # the worker's post is timed, not the move
    play(game, {"action": "reveal"})
    [row] = WebhookDelivery.objects.all()

    started = time.monotonic()
    assert delivery.send_pending_delivery(row.id) == SendOutcome.RETRYING
    assert time.monotonic() - started < settings.WEBHOOK_TOTAL_TIMEOUT_SECONDS + 1.5

    row.refresh_from_db()
    assert (row.status, row.attempts) == (WebhookDelivery.Status.PENDING, 1)
    assert "no complete answer within 2 s" in row.last_error
    assert tarpit.accepted == 1


def test_the_answer_counts_once_its_status_has_come(receiver):
    """A plain answer still works: the status is read, the body drained."""
    assert WEBHOOK_POSTS.post(receiver.url(), b"{}", {}, timeout=2, total_timeout=5) == 200
    [post] = receiver.posts
    assert (post.body, post.headers["Content-Type"]) == (b"{}", "application/json")
