"""With the cache on Redis, committed emails wake one ``drain_outbox`` task for every commit
before it starts, instead of one send task per commit; nothing is sent late or twice."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.test import override_settings
from django.utils import timezone

import notifications.tasks
from accounts.throttling import counter_client
from notifications import outbox
from notifications.models import OutboundEmail
from notifications.outbox import DRAIN_FLAG, DRAIN_FLAG_SECONDS, SweepResult, queue_email
from tests.caches import redis_cache
from tests.servers import RedisServer

from .conftest import TURN_CONTEXT

pytestmark = pytest.mark.django_db


@pytest.fixture
def on_redis(redis_url):
    """The default cache on the test Redis, as in production."""
    with redis_cache(redis_url) as cache:
        yield cache


@pytest.fixture
def published(monkeypatch):
    """The tasks published, by name (not run): ``drain_outbox`` and ``send_emails``."""
    tasks = []

    class Recording:
        def __init__(self, name):
            self.name = name

        def delay(self, *args):
            tasks.append(self.name)

    monkeypatch.setattr(notifications.tasks.drain_outbox, "delay", Recording("drain_outbox").delay)
    monkeypatch.setattr(notifications.tasks.send_emails, "delay", Recording("send_emails").delay)
    return tasks


def commit_one(django_capture_on_commit_callbacks, to: str, **options) -> OutboundEmail:
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        return queue_email(to, "test_message", TURN_CONTEXT, **options)


def test_commits_before_the_drain_starts_wake_it_once_and_it_sends_them_all(
    on_redis, published, mailoutbox, django_capture_on_commit_callbacks
):
    first = [commit_one(django_capture_on_commit_callbacks, f"p{n}@example.com") for n in range(3)]
    assert published == ["drain_outbox"]  # the second and third found it on its way

    assert outbox.drain_outbox() == SweepResult(sent=3)
    assert sorted(m.to[0] for m in mailoutbox) == [
        "p0@example.com",
        "p1@example.com",
        "p2@example.com",
    ]
    assert not OutboundEmail.objects.filter(id__in=[e.id for e in first]).exclude(status="sent")

    # The drain cleared the flag before it looked: the next commit wakes another.
    commit_one(django_capture_on_commit_callbacks, "p3@example.com")
    assert published == ["drain_outbox", "drain_outbox"]


def test_a_drain_sends_a_batch_and_wakes_the_next_for_the_rest(
    on_redis, published, mailoutbox, monkeypatch, django_capture_on_commit_callbacks
):
    for n in range(3):
        commit_one(django_capture_on_commit_callbacks, f"p{n}@example.com")
    held = commit_one(
        django_capture_on_commit_callbacks,
        "later@example.com",
        send_after=timezone.now() + timedelta(hours=8),  # quiet hours: not due yet
    )
    published[:] = []

    assert outbox.drain_outbox(limit=2) == SweepResult(sent=2)
    assert published == ["drain_outbox"]  # two tried, so more may be due
    assert outbox.drain_outbox(limit=2) == SweepResult(sent=1)
    assert published == ["drain_outbox"]  # one tried: nothing left, no other drain
    assert len(mailoutbox) == 3
    held.refresh_from_db()
    assert held.status == "pending"


def test_a_drain_that_never_comes_holds_the_wake_up_only_for_a_while(
    on_redis, published, django_capture_on_commit_callbacks
):
    commit_one(django_capture_on_commit_callbacks, "anna@example.com")
    client = counter_client()
    ttl = client.ttl(on_redis.make_and_validate_key(DRAIN_FLAG))
    assert 0 < ttl <= DRAIN_FLAG_SECONDS
    # Lost (say its worker was killed before it began): once the flag expires, the next
    # commit wakes a drain again; until then the every-minute sweep sends what is due.
    client.delete(on_redis.make_and_validate_key(DRAIN_FLAG))
    commit_one(django_capture_on_commit_callbacks, "bert@example.com")
    assert published == ["drain_outbox", "drain_outbox"]


def test_without_redis_each_commit_publishes_its_own_send_task(
    published, django_capture_on_commit_callbacks
):
    # The tests' default cache is in memory; the database cache (make run) is the same:
    # asking it for a flag would cost a query, so there is none.
    for n in range(2):
        commit_one(django_capture_on_commit_callbacks, f"p{n}@example.com")
    assert published == ["send_emails", "send_emails"]


@pytest.fixture
def redis_gone():
    """The default cache on a Redis that was there and is gone (connection refused)."""
    server = RedisServer().start()
    server.stop()
    config = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": server.url,
        }
    }
    with override_settings(CACHES=config):
        yield


def test_while_redis_does_not_answer_commits_publish_send_tasks_and_drains_still_send(
    redis_gone, published, mailoutbox, django_capture_on_commit_callbacks
):
    commit_one(django_capture_on_commit_callbacks, "anna@example.com")
    commit_one(django_capture_on_commit_callbacks, "bert@example.com")
    assert published == ["send_emails", "send_emails"]  # the broker may still be there

    assert outbox.drain_outbox(limit=1) == SweepResult(sent=1)
    assert len(mailoutbox) == 1  # the rest: the every-minute sweep (no flag to wake with)
