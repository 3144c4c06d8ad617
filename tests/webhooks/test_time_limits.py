"""Every task has time limits; webhook tasks have a queue of their own; a claim is never
taken back from a post still under way."""

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings as django_settings

from core.outbound.transport import LOOKUP_ALLOWANCE_SECONDS, OutboundPosts
from piratz_site.celery import app
from webhooks import delivery
from webhooks.models import WebhookDelivery

from .conftest import add_webhook, play_some

pytestmark = pytest.mark.django_db

Status = WebhookDelivery.Status
PROJECT_APPS = ("accounts.", "games.", "mailin.", "moderation.", "notifications.", "webhooks.")


def project_tasks():
    app.loader.import_default_modules()  # the apps' tasks modules, as a worker loads them
    tasks = [task for name, task in app.tasks.items() if name.startswith(PROJECT_APPS)]
    assert len(tasks) >= 10
    return tasks


def limits(task) -> tuple[float, float]:
    """The task's soft and hard time limits in seconds, as a worker applies them."""
    soft = task.soft_time_limit or app.conf.task_soft_time_limit
    hard = task.time_limit or app.conf.task_time_limit
    return soft, hard


def test_every_task_has_a_soft_and_a_hard_time_limit():
    for task in project_tasks():
        soft, hard = limits(task)
        assert soft and hard, task.name
        assert 0 < soft < hard, task.name


def test_webhook_tasks_run_on_their_own_queue():
    for task in project_tasks():
        queue = app.amqp.router.route({}, task.name)["queue"].name
        expected = "webhooks" if task.name.startswith("webhooks.") else "celery"
        assert queue == expected, task.name


def test_a_claim_is_taken_back_only_after_its_task_must_have_been_killed():
    """The stuck sweep's threshold exceeds every webhook task's hard time limit, so the
    worker holding the claim has been killed by then: no second worker posts meanwhile."""
    for task in project_tasks():
        if task.name.startswith("webhooks."):
            assert delivery.stuck_after().total_seconds() > limits(task)[1], task.name


def test_a_sweep_starts_no_post_that_could_outlast_its_soft_time_limit():
    longest = django_settings.WEBHOOK_TOTAL_TIMEOUT_SECONDS + LOOKUP_ALLOWANCE_SECONDS
    assert delivery.sweep_budget_seconds() + longest <= app.conf.task_soft_time_limit
    assert delivery.sweep_budget_seconds() > 0


def test_a_delivery_stopped_at_its_soft_time_limit_is_recorded_and_released(
    toy_game, anna, receiver, monkeypatch
):
    add_webhook(toy_game, anna, "json", receiver.url())
    play_some(toy_game)
    [row] = WebhookDelivery.objects.all()

    def post(*args, **kwargs):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(OutboundPosts, "post", post)
    with pytest.raises(SoftTimeLimitExceeded):  # the task still ends
        delivery.send_pending_delivery(row.id)
    row.refresh_from_db()
    assert (row.status, row.attempts) == (Status.PENDING, 1)  # not left "sending"
    assert row.last_error == delivery.INTERRUPTED_ERROR


def test_a_sweep_out_of_time_leaves_the_rest_unclaimed(toy_game, anna, receiver, settings):
    settings.OUTBOX_EAGER_SEND_ON_COMMIT = False
    add_webhook(toy_game, anna, "json", receiver.url())
    for _ in range(3):
        toy_game = play_some(toy_game)
    assert WebhookDelivery.objects.filter(status=Status.PENDING).count() == 3

    result = delivery.send_due_deliveries(limit=200, budget_seconds=0)

    assert result.sent == 1  # one at least, so a sweep always gets somewhere
    assert WebhookDelivery.objects.filter(status=Status.PENDING).count() == 2
    assert not WebhookDelivery.objects.filter(status=Status.SENDING).exists()
