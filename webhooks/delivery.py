"""The webhook outbox: deliveries queued with the move, posted by a worker, retried, recorded.

The same machine as the email outbox's (``notifications.delivery``), with the webhook
transport (``WEBHOOK``): a row per post written in the transaction of the change, a task
scheduled on commit, a guarded UPDATE claiming the row (so a task run twice, or a task
racing the sweep, posts once), transient errors retried with the one backoff, stuck
claims returned by the every-minute sweep. A request never waits on an endpoint: it only
writes rows; the worker posts.
"""

import json
import logging
import time
from datetime import datetime, timedelta
from functools import partial

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from core.outbound.transport import DeliveryError, answer_error, longest_post_seconds
from core.tasks import task_named
from games.models import Game, Move
from notifications import delivery as machine
from notifications.delivery import Failure, NotAttempted, SendOutcome, SweepResult, Transport
from talk.models import Message

from . import payloads, signing
from .models import WEBHOOK_POSTS, Webhook, WebhookDelivery, WebhookKind

logger = logging.getLogger(__name__)

Status = WebhookDelivery.Status
STUCK_ERROR = "The worker stopped while posting; the post may or may not have arrived."
INTERRUPTED_ERROR = "Stopped at the task's time limit; the post may or may not have arrived."


def queue_event(
    game: Game, event: str, move: Move | None = None, *, message: Message | None = None
) -> list[WebhookDelivery]:
    """Write one delivery per enabled webhook of ``game``; post them after commit.

    Called by the receivers of ``games.events`` and ``talk.events`` inside the change's
    transaction: a rolled-back move or message posts nothing.
    """
    webhooks = _enabled_webhooks(game)
    if not webhooks:
        return []
    data = payloads.event_data(game, event, move, message=message)
    deliveries = WebhookDelivery.objects.bulk_create(
        WebhookDelivery(webhook=webhook, event=event, body=payloads.body_for(webhook, data, game))
        for webhook in webhooks
    )
    _schedule([delivery.id for delivery in deliveries])
    return deliveries


# The attribute of a Game instance holding its enabled webhooks (see _enabled_webhooks).
_WEBHOOKS_CACHE = "_enabled_webhooks"


def _enabled_webhooks(game: Game) -> list[Webhook]:
    """The game's enabled webhooks; none, without asking anything, when the game row says
    so (``Game.has_webhooks``, read with the row the move has locked: most games have no
    webhook, and asking cost every move a query or a cache round trip)."""
    if not game.has_webhooks:
        return []
    # A move that ends the game sends two events with the same saved game: one query for
    # both. Keyed by the version, so a later change to this instance reads again; nobody
    # adds a webhook meanwhile, as every change of the flag waits for the game row's lock.
    cached = getattr(game, _WEBHOOKS_CACHE, None)
    if cached is None or cached[0] != (game.version, game.status):
        webhooks = Webhook.objects.filter(game_id=game.id, disabled_at__isnull=True)
        cached = ((game.version, game.status), list(webhooks.select_related("owner")))
        setattr(game, _WEBHOOKS_CACHE, cached)
    return cached[1]


def refresh_has_webhooks(game_id) -> None:
    """Set the game's ``has_webhooks`` from its webhooks: the flag's one writer.

    Call in the transaction of every change of a webhook's existence or enabled state
    (``webhooks.receivers`` does on each save and delete; ``disable_webhooks`` for its
    bulk update), after the change. The game row is locked first, in a statement of its
    own, and only then is the flag computed: a move holds that lock while it reads the
    flag, so the two are ordered; and on PostgreSQL an UPDATE that had to wait for the lock
    would evaluate its EXISTS with the snapshot from before the wait, missing a webhook
    that a writer holding the lock had just added (and clearing the flag it had set).
    A False flag while an enabled webhook exists would lose that webhook's posts; a True
    one while none does costs a move one query, nothing else.
    """
    with transaction.atomic(savepoint=False):
        lock_games([game_id])
        enabled = Webhook.objects.filter(game_id=OuterRef("pk"), disabled_at__isnull=True)
        Game.objects.filter(id=game_id).update(has_webhooks=Exists(enabled))


def lock_games(game_ids) -> None:
    """Lock these game rows until the transaction ends, in id order (one statement).

    Whoever changes a game's webhooks takes its row first, as a move does, so that the
    row locks and the webhook rows' locks are always taken in the same order: a delete
    of a webhook holding the webhook's rows and waiting for the game would deadlock with
    a move holding the game and waiting (its delivery's foreign key) for the webhook.
    """
    list(
        Game.objects.select_for_update()
        .filter(id__in=game_ids)
        .order_by("id")
        .values_list("id", flat=True)
    )


def _schedule(delivery_ids: list[int]) -> None:
    if current_app.conf.task_always_eager and not settings.OUTBOX_EAGER_SEND_ON_COMMIT:
        # Eager tasks would post inside the request: the sweep posts instead (as for emails).
        return
    for delivery_id in delivery_ids:
        # robust: the rows are committed; a broker that is down must not fail the move.
        transaction.on_commit(partial(_enqueue_delivery, delivery_id), robust=True)


def _enqueue_delivery(delivery_id: int) -> None:
    task_named("webhooks.tasks.send_webhook_delivery").delay(delivery_id)


def request_for(delivery: WebhookDelivery, now: int) -> tuple[bytes, dict[str, str]]:
    """The body bytes and headers posted for ``delivery`` at ``now`` (unix seconds).

    ``json`` posts carry the signature (``webhooks.signing``); every post names its event
    and delivery id, which a receiver may use to drop a post it already has (a post whose
    worker died may be sent again).
    """
    body = json.dumps(delivery.body, separators=(",", ":"), ensure_ascii=False).encode()
    headers = {"X-Piratz-Event": delivery.event, "X-Piratz-Delivery": str(delivery.id)}
    if delivery.webhook.kind == WebhookKind.JSON:
        secret = signing.secret_for(delivery.webhook.id)
        headers[signing.SIGNATURE_HEADER] = signing.signature(secret, now, body)
    return body, headers


def send_pending_delivery(delivery_id: int) -> SendOutcome:
    """Post the delivery if it is pending and due, and record the outcome.

    Safe to call any number of times, concurrently too: only the caller whose guarded
    UPDATE claimed the row posts; the others get ``SKIPPED``. Errors never propagate, but
    Celery's soft time limit, recorded as an interrupted attempt first.
    """
    return machine.send_one(WEBHOOK, delivery_id)


class WebhookTransport(Transport):
    """Posts to webhook URLs (``WEBHOOK_POSTS``: ``core.outbound``'s checked, pinned
    transport), for the delivery machine; ``WEBHOOK`` is the one."""

    model = WebhookDelivery
    logger = logger
    stuck_error = STUCK_ERROR
    interrupted_error = INTERRUPTED_ERROR

    def max_attempts(self) -> int:
        return settings.WEBHOOK_MAX_ATTEMPTS

    def load(self, pk) -> WebhookDelivery:
        return WebhookDelivery.objects.select_related("webhook").get(pk=pk)

    def deliver(self, row: WebhookDelivery) -> None:
        webhook = row.webhook
        if not webhook.enabled:
            # Queued before it was disabled: nothing is tried, the row says why.
            raise NotAttempted(f"The webhook was disabled: {webhook.disabled_reason}")
        body, headers = request_for(row, int(time.time()))
        status = WEBHOOK_POSTS.post(
            webhook.url,
            body,
            headers,
            timeout=settings.WEBHOOK_TIMEOUT_SECONDS,
            total_timeout=settings.WEBHOOK_TOTAL_TIMEOUT_SECONDS,
        )
        error = answer_error(status)
        if error is not None:
            raise error

    def failure_for(self, exc: Exception) -> Failure:
        if isinstance(exc, DeliveryError):
            return Failure(str(exc), permanent=exc.permanent)
        # A bug: only its type is stored (its message might quote the URL, a token).
        return Failure(type(exc).__name__, permanent=False, unexpected=True)

    def before_recording(self, row: WebhookDelivery) -> None:
        if row.status == Status.FAILED:
            # Counted, it may disable the webhook, which changes the game's flag: the
            # game row first, as every writer of webhooks takes it (see lock_games).
            lock_games([row.webhook.game_id])

    def after_recording(self, row: WebhookDelivery) -> None:
        _count_on_webhook(row)


WEBHOOK = WebhookTransport()


def _count_on_webhook(delivery: WebhookDelivery) -> None:
    """A delivered post resets the webhook's failure count; one failed for good adds to it,
    and the ``WEBHOOK_DISABLE_AFTER_FAILURES``-th in a row disables it."""
    enabled = Webhook.objects.filter(id=delivery.webhook_id, disabled_at__isnull=True)
    if delivery.status == Status.SENT:
        enabled.exclude(consecutive_failures=0).update(consecutive_failures=0)
    elif delivery.status == Status.FAILED:
        enabled.update(consecutive_failures=F("consecutive_failures") + 1)
        limit = settings.WEBHOOK_DISABLE_AFTER_FAILURES
        reason = (
            f"Disabled after {limit} failed deliveries in a row; the last one: "
            f"{delivery.last_error}"
        )
        disable_webhooks(enabled.filter(consecutive_failures__gte=limit), reason)


def disable_webhooks(webhooks, reason: str) -> int:
    """Disable these webhooks (a queryset of enabled ones) with ``reason``; their pending
    deliveries fail with it, and their games' ``has_webhooks`` is refreshed in the same
    transaction (a bulk update sends no ``post_save``). Returns how many were disabled."""
    now = timezone.now()
    with transaction.atomic(savepoint=False):
        found = list(webhooks.values_list("id", "game_id"))
        if not found:
            return 0
        ids = [webhook_id for webhook_id, _ in found]
        game_ids = sorted({game_id for _, game_id in found})
        lock_games(game_ids)
        disabled = Webhook.objects.filter(id__in=ids, disabled_at__isnull=True).update(
            disabled_at=now, disabled_reason=reason
        )
        WebhookDelivery.objects.filter(webhook_id__in=ids, status=Status.PENDING).update(
            status=Status.FAILED, last_error=f"The webhook was disabled: {reason}"
        )
        for game_id in game_ids:
            refresh_has_webhooks(game_id)
    for webhook_id in ids:
        logger.warning("Webhook %s disabled: %s", webhook_id, reason)
    return disabled


def stuck_after() -> timedelta:
    """How long a claim is held before the sweep takes it back (``WebhookDelivery.
    stuck_after``: the task's hard time limit and a minute)."""
    return WebhookDelivery.stuck_after()


def requeue_stuck_deliveries(now: datetime) -> int:
    """Return deliveries claimed longer than ``stuck_after()`` ago to pending (their worker
    died: the post may have arrived, so delivery is at least once; the ``X-Piratz-Delivery``
    header lets a receiver drop the second copy). The lost attempt counts."""
    return machine.requeue_stuck(WEBHOOK, now)


def sweep_budget_seconds() -> float:
    """How long a sweep may go on starting posts: its last post still ends before the
    task's soft time limit (``CELERY_TASK_SOFT_TIME_LIMIT``)."""
    return settings.CELERY_TASK_SOFT_TIME_LIMIT - longest_post_seconds(
        settings.WEBHOOK_TOTAL_TIMEOUT_SECONDS
    )


def send_due_deliveries(
    limit: int | None = None, *, budget_seconds: float | None = None
) -> SweepResult:
    """Requeue stuck deliveries, then post the due ones, oldest first: ``limit`` at most,
    and none started after ``budget_seconds`` (at least one is tried).

    Claimed one at a time (``claim_first``, which passes over other sweeps' rows), so a
    sweep that ends, or is stopped at its time limit, holds no claim it has not posted.
    """
    return machine.sweep(WEBHOOK, limit=limit, chunk=1, budget_seconds=budget_seconds)
