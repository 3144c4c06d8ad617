"""The push outbox: messages queued with the change, sent by a worker, retried, recorded.

The delivery machine of every outbox (``notifications.delivery``) with the push transport
(``PUSH``), as webhooks use it: ``queue_news`` (registered in ``games.news_channels``)
writes one row per subscribed device in the transaction of the change and schedules its
task on commit; the worker encrypts the payload for the device (RFC 8291, aes128gcm, by
``pywebpush``), signs a VAPID token (RFC 8292) and posts it to the push service through
the transport of every outbound post (``push.endpoints.PUSH_POSTS``: the endpoint's host
resolved, every address checked against the one table, the connection pinned to the
checked address, one total timeout; redirects are not followed). A 2xx is sent; 404 or
410 means the browser unsubscribed: the subscription is removed and the row fails for
good; 408, 429 and 5xx (and network errors) are retried with the one backoff; a refused
address fails for good. The tasks run on the queue of outbound posts (``WEBHOOKS_QUEUE``).
"""

import json
import logging
import time
from datetime import datetime
from functools import partial

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from py_vapid import Vapid

from accounts.schedule import EmailKind
from core.outbound.transport import DeliveryError, answer_error, longest_post_seconds
from core.tasks import task_named
from games.models import Game
from notifications import delivery as machine
from notifications import send_checks
from notifications.delivery import Failure, NotAttempted, SendOutcome, SweepResult, Transport
from notifications.send_checks import SendCheck

from . import messages
from .endpoints import PUSH_POSTS
from .models import PushDelivery, PushSubscription, endpoint_origin

logger = logging.getLogger(__name__)

Status = PushDelivery.Status
STUCK_ERROR = "The worker stopped while sending; the message may or may not have arrived."
INTERRUPTED_ERROR = "Stopped at the task's time limit; the message may or may not have arrived."
GONE_ERROR = "HTTP %d: the browser unsubscribed; the subscription was removed."
# The VAPID token is good for this long (RFC 8292 allows up to 24 hours).
VAPID_TOKEN_SECONDS = 12 * 60 * 60
URGENT_KINDS = {EmailKind.YOUR_TURN, EmailKind.REMINDER}


class PushError(Exception):
    """A push that did not succeed; ``permanent``: trying again cannot help."""

    def __init__(self, message: str, *, permanent: bool, gone: bool = False):
        super().__init__(message)
        self.permanent = permanent
        self.gone = gone


def queue_news(
    game: Game,
    user,
    kind: str,
    not_before: datetime | None,
    send_check: SendCheck | None,
) -> bool:
    """Queue news of ``kind`` about ``game`` to each of ``user``'s devices, due at
    ``not_before`` (None: now), asking ``send_check`` when due; False if they have none.

    Called by ``games.notify`` through ``games.news_channels`` inside the change's
    transaction: a rolled-back move pushes nothing. Nothing is queued while no VAPID
    keys are set (nothing could be sent).
    """
    if not (settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY):
        return False
    subscriptions = list(PushSubscription.objects.filter(user=user))
    if not subscriptions:
        return False
    payload = messages.payload_for(game, user, kind)
    check = None if send_check is None else send_checks.to_json(send_check)
    due = not_before or timezone.now()
    rows = PushDelivery.objects.bulk_create(
        PushDelivery(
            subscription=subscription,
            user=user,
            kind=kind,
            payload=payload,
            send_check=check,
            next_attempt_at=due,
        )
        for subscription in subscriptions
    )
    if due <= timezone.now():
        _schedule([row.id for row in rows])
    return True


def _schedule(delivery_ids: list[int]) -> None:
    if current_app.conf.task_always_eager and not settings.OUTBOX_EAGER_SEND_ON_COMMIT:
        # Eager tasks would send inside the request: the sweep sends instead (as for emails).
        return
    for delivery_id in delivery_ids:
        # robust: the rows are committed; a broker that is down must not fail the move.
        transaction.on_commit(partial(_enqueue, delivery_id), robust=True)


def _enqueue(delivery_id: int) -> None:
    task_named("push.tasks.send_push_delivery").delay(delivery_id)


def vapid_headers(endpoint: str, now: int) -> dict[str, str]:
    """The ``Authorization: vapid t=…, k=…`` header for a post to ``endpoint`` at ``now``
    (unix seconds): a JWT (ES256) for the endpoint's origin, signed with
    ``VAPID_PRIVATE_KEY``, naming ``VAPID_SUBJECT``."""
    vapid = Vapid.from_string(private_key=settings.VAPID_PRIVATE_KEY)
    claims = {
        "aud": endpoint_origin(endpoint),
        "exp": now + VAPID_TOKEN_SECONDS,
        "sub": settings.VAPID_SUBJECT,
    }
    return vapid.sign(claims)


def encrypt(subscription: PushSubscription, data: bytes) -> bytes:
    """``data`` encrypted for the subscribed browser (RFC 8291, ``aes128gcm``): only its
    keys can read it."""
    # deferred: pywebpush loads aiohttp (0.17 s), which every web and worker process,
    # manage.py command and test would otherwise pay at start; only a push needs it.
    from pywebpush import WebPusher

    info = {
        "endpoint": subscription.endpoint,
        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
    }
    return WebPusher(info).encode(data, content_encoding="aes128gcm")["body"]


def classify(status: int) -> PushError | None:
    """None for a 2xx answer, else the error: 404 and 410 mean the subscription is gone;
    the rest as for every outbound post (``answer_error``: 408, 425, 429 and 5xx are
    worth retrying, any other answer will not change)."""
    if status in (404, 410):
        return PushError(GONE_ERROR % status, permanent=True, gone=True)
    error = answer_error(status)
    return None if error is None else PushError(str(error), permanent=error.permanent)


class PushTransport(Transport):
    """Sends push messages, for the delivery machine; ``PUSH`` is the one."""

    model = PushDelivery
    logger = logger
    stuck_error = STUCK_ERROR
    interrupted_error = INTERRUPTED_ERROR

    def max_attempts(self) -> int:
        return settings.PUSH_MAX_ATTEMPTS

    def load(self, pk) -> PushDelivery:
        return PushDelivery.objects.select_related("subscription").get(pk=pk)

    def deliver(self, row: PushDelivery) -> None:
        subscription = row.subscription
        if subscription is None:
            raise NotAttempted("The subscription was removed.")
        if not settings.VAPID_PRIVATE_KEY:
            raise NotAttempted("No VAPID key is set (VAPID_PRIVATE_KEY).")
        # The turn news waits while its player is at the table, as the email does.
        send_checks.enforce(row.send_check, timezone.now())
        body = encrypt(subscription, json.dumps(row.payload, ensure_ascii=False).encode())
        headers = {
            **vapid_headers(subscription.endpoint, int(time.time())),
            "Content-Type": "application/octet-stream",
            "Content-Encoding": "aes128gcm",
            "TTL": str(settings.PUSH_TTL_SECONDS),
            "Urgency": "high" if row.kind in URGENT_KINDS else "normal",
        }
        # Checked again here (the name may point elsewhere since it subscribed) and posted
        # to the very address checked: an UnsafeUrl is permanent, the rest retried.
        status = PUSH_POSTS.post(
            subscription.endpoint,
            body,
            headers,
            timeout=settings.PUSH_TIMEOUT_SECONDS,
            total_timeout=settings.PUSH_TOTAL_TIMEOUT_SECONDS,
        )
        error = classify(status)
        if error is not None:
            row.subscription_gone = error.gone  # type: ignore[attr-defined]
            raise error

    def failure_for(self, exc: Exception) -> Failure:
        if isinstance(exc, PushError | DeliveryError):
            # A DeliveryError names the host at most, never the path (which names the device).
            return Failure(str(exc), permanent=exc.permanent)
        # A bug: only its type is stored (its message might quote the endpoint).
        return Failure(type(exc).__name__, permanent=False, unexpected=True)

    def after_recording(self, row: PushDelivery) -> None:
        if row.status == Status.SENT and row.subscription_id is not None:
            PushSubscription.objects.filter(pk=row.subscription_id).update(last_used_at=row.sent_at)
        elif getattr(row, "subscription_gone", False) and row.subscription_id is not None:
            # The browser unsubscribed (or its push service forgot it): no more posts.
            PushSubscription.objects.filter(pk=row.subscription_id).delete()
            logger.info(
                "Push subscription %s removed: the push service answered gone", row.subscription_id
            )


PUSH = PushTransport()


def send_pending_delivery(delivery_id: int) -> SendOutcome:
    """Send the delivery if it is pending and due, and record the outcome; safe to call
    any number of times, concurrently too (only the caller that claims it sends)."""
    return machine.send_one(PUSH, delivery_id)


def send_due_deliveries(limit: int | None = None) -> SweepResult:
    """Requeue stuck deliveries, then send the due ones, oldest first, ``limit`` at most."""
    # The last post started still ends before the task's soft time limit.
    longest_post = longest_post_seconds(settings.PUSH_TOTAL_TIMEOUT_SECONDS)
    budget = settings.CELERY_TASK_SOFT_TIME_LIMIT - longest_post
    return machine.sweep(PUSH, limit=limit, chunk=1, budget_seconds=max(1, budget))
