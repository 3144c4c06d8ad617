"""End to end: a committed email travels through a real Redis broker to a real Celery worker."""

import threading
import time

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.db import transaction

from notifications import tasks  # registers the tasks on the app before the worker starts
from notifications.models import OutboundEmail
from notifications.outbox import queue_email
from piratz_site.celery import app
from tests.caches import redis_cache
from tests.processes import celery_app_on
from tests.servers import wait_until

from .conftest import TURN_CONTEXT


@pytest.fixture
def celery_worker_on_redis(redis_url):
    """The project's Celery app on a real Redis broker, with a worker in a thread."""
    assert tasks.send_emails.name in app.tasks
    with celery_app_on(redis_url):
        app.control.purge()  # leftovers of an aborted run would name ids of this test's rows
        with start_worker(app, perform_ping_check=False, shutdown_timeout=30):
            yield


@pytest.fixture
def task_runs():
    """(task name, ran eagerly?, thread) of every task run during the test."""
    runs = []

    def record(sender, **kwargs):
        runs.append((sender.name, bool(sender.request.is_eager), threading.current_thread()))

    task_postrun.connect(record, weak=False)
    yield runs
    task_postrun.disconnect(record)


@pytest.mark.django_db(transaction=True)
def test_email_committed_in_a_transaction_is_sent_by_the_worker(
    celery_worker_on_redis, task_runs, mailoutbox
):
    with transaction.atomic():
        email = queue_email("anna@example.com", "test_message", TURN_CONTEXT, topic="game:0b5e")

    deadline = time.monotonic() + 20
    while email.status in ("pending", "sending") and time.monotonic() < deadline:
        time.sleep(0.1)
        email.refresh_from_db()

    assert email.status == "sent", email.last_error
    # The task commits the status before it returns, and task_postrun comes after that.
    wait_until(lambda: task_runs, 10, "the worker's task to end (task_postrun)")
    assert [message.to for message in mailoutbox] == [["anna@example.com"]]
    assert mailoutbox[0].subject == "Your turn in Skull <Bay> against Anna"
    # Sent by the worker through the broker, not in-process by an eager task.
    assert [(name, eager) for name, eager, _ in task_runs] == [(tasks.send_emails.name, False)]
    assert task_runs[0][2] is not threading.main_thread()


@pytest.mark.django_db(transaction=True)
def test_with_the_cache_on_redis_a_drain_sends_every_committed_email_once(
    celery_worker_on_redis, redis_url, task_runs, mailoutbox
):
    with redis_cache(redis_url):
        emails = []
        for n in range(6):
            with transaction.atomic():
                emails.append(queue_email(f"p{n}@example.com", "test_message", TURN_CONTEXT))

        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and (
            OutboundEmail.objects.filter(id__in=[e.id for e in emails])
            .exclude(status="sent")
            .exists()
        ):
            time.sleep(0.1)

    assert sorted(message.to[0] for message in mailoutbox) == [
        f"p{n}@example.com" for n in range(6)
    ]
    wait_until(lambda: task_runs, 10, "a drain to end (task_postrun)")
    names = {name for name, eager, _ in task_runs if not eager}
    assert names == {tasks.drain_outbox.name}
    # However quick the worker, never more drains than commits.
    assert 1 <= len(task_runs) <= 6
