"""A dead endpoint never slows a move: the request writes a row, the worker posts."""

import time

import pytest

from notifications.outbox import SendOutcome
from tests.factories import client_for
from tests.processes import celery_app_on
from webhooks import delivery
from webhooks.models import WebhookDelivery

from .conftest import add_webhook

pytestmark = pytest.mark.django_db


def test_a_move_does_not_wait_on_a_dead_endpoint(
    game, anna, black_hole, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_TIMEOUT_SECONDS = 2
    add_webhook(game, anna, "json", f"http://127.0.0.1:{black_hole.port}/hook")

    # As in production: tasks are published to a broker, not run in the request.
    with celery_app_on("memory://"), django_capture_on_commit_callbacks(execute=True):
        started = time.monotonic()
        answer = client_for(anna).post(
            f"/api/games/{game.id}/moves/", {"version": 0, "action": "reveal"}, format="json"
        )
        elapsed = time.monotonic() - started
    assert answer.status_code == 200, answer.json()
    time.sleep(0.3)  # an accidental connection from the request would have arrived by now
    assert black_hole.accepted == []
    assert elapsed < settings.WEBHOOK_TIMEOUT_SECONDS
    row = WebhookDelivery.objects.get()
    assert (row.status, row.attempts) == (WebhookDelivery.Status.PENDING, 0)

    # The worker's attempt meets the silence, gives up after the timeout, and will retry.
    started = time.monotonic()
    assert delivery.send_pending_delivery(row.id) == SendOutcome.RETRYING
    assert time.monotonic() - started < settings.WEBHOOK_TIMEOUT_SECONDS + 2
    assert len(black_hole.accepted) == 1
    row.refresh_from_db()
    assert row.status == WebhookDelivery.Status.PENDING
    assert "TimeoutError" in row.last_error
