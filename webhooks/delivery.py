"""The webhook outbox: deliveries queued with the move, posted by a worker, retried, recorded.

The same design as the email outbox (``notifications.outbox``): a row per post written
in the transaction of the change, a task scheduled on commit, a guarded UPDATE claiming
the row (so a task run twice, or a task racing the sweep, posts once), transient errors
retried with the outbox's backoff, stuck claims returned by the every-minute sweep. A
request never waits on an endpoint: it only writes rows; the worker posts.
"""

import json
import logging
import time
from collections import Counter
from datetime import datetime, timedelta

from celery import current_app
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from games.models import Game, Move
from notifications.outbox import SendOutcome, SweepResult

from . import payloads, signing, transport
from .models import Webhook, WebhookDelivery, WebhookKind

logger = logging.getLogger(__name__)

Status = WebhookDelivery.Status
STUCK_ERROR = "The worker stopped while posting; the post may or may not have arrived."
INTERRUPTED_ERROR = "Stopped at the task's time limit; the post may or may not have arrived."
# What a post may take beyond WEBHOOK_TOTAL_TIMEOUT_SECONDS: its name lookup is the
# resolver's own (glibc's default: 5 s, twice, for each of up to three name servers).
LOOKUP_ALLOWANCE_SECONDS = 30


def queue_event(game: Game, event: str, move: Move | None = None) -> list[WebhookDelivery]:
    """Write one delivery per enabled webhook of ``game``; post them after commit.

    Called by the receivers of ``games.events`` inside the change's transaction: a
    rolled-back move posts nothing.
    """
    webhooks = _enabled_webhooks(game)
    if not webhooks:
        return []
    data = payloads.event_data(game, event, move)
    deliveries = WebhookDelivery.objects.bulk_create(
        WebhookDelivery(webhook=webhook, event=event, body=payloads.body_for(webhook, data, game))
        for webhook in webhooks
    )
    _schedule([delivery.id for delivery in deliveries])
    return deliveries


def _enabled_webhooks(game: Game) -> list[Webhook]:
    """The game's enabled webhooks; none, without asking anything, when the game row says
    so (``Game.has_webhooks``, read with the row the move has locked: most games have no
    webhook, and asking cost every move a query or a cache round trip)."""
    if not game.has_webhooks:
        return []
    # A move that ends the game sends two events with the same saved game: one query for
    # both. Keyed by the version, so a later change to this instance reads again; nobody
    # adds a webhook meanwhile, as every change of the flag waits for the game row's lock.
    cached = getattr(game, "_enabled_webhooks", None)
    if cached is None or cached[0] != (game.version, game.status):
        webhooks = Webhook.objects.filter(game_id=game.id, disabled_at__isnull=True)
        cached = ((game.version, game.status), list(webhooks.select_related("owner")))
        game._enabled_webhooks = cached
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
    from .tasks import send_webhook_delivery

    if current_app.conf.task_always_eager and not settings.OUTBOX_EAGER_SEND_ON_COMMIT:
        # Eager tasks would post inside the request: the sweep posts instead (as for emails).
        return
    for delivery_id in delivery_ids:
        # robust: the rows are committed; a broker that is down must not fail the move.
        transaction.on_commit(
            lambda delivery_id=delivery_id: send_webhook_delivery.delay(delivery_id), robust=True
        )


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


def classify(status: int) -> transport.DeliveryError | None:
    """None for a 2xx answer, else the error: 408, 429 and 5xx are worth retrying; any
    other answer (4xx, and 3xx: redirects are not followed) will not change."""
    if 200 <= status < 300:
        return None
    transient = status in (408, 425, 429) or status >= 500
    return transport.DeliveryError(f"HTTP {status}", permanent=not transient)


def send_pending_delivery(delivery_id: int) -> SendOutcome:
    """Post the delivery if it is pending and due, and record the outcome.

    Safe to call any number of times, concurrently too: only the caller whose guarded
    UPDATE claimed the row posts; the others get ``SKIPPED``. Errors never propagate.
    """
    claimed_at = timezone.now()
    if not WebhookDelivery.objects.claim(delivery_id, claimed_at):
        return SendOutcome.SKIPPED
    return _post_claimed(delivery_id, claimed_at)


def _post_claimed(delivery_id: int, claimed_at: datetime) -> SendOutcome:
    """Post a delivery this caller claimed at ``claimed_at`` and record the outcome (see
    ``send_pending_delivery``)."""
    delivery = WebhookDelivery.objects.select_related("webhook").get(id=delivery_id)
    webhook = delivery.webhook
    if not webhook.enabled:
        # Queued before it was disabled: nothing is tried, the row says why.
        delivery.status = Status.FAILED
        delivery.last_error = f"The webhook was disabled: {webhook.disabled_reason}"
        _save_outcome(delivery, claimed_at, count_failure=False)
        return SendOutcome.FAILED
    try:
        body, headers = request_for(delivery, int(time.time()))
        status = transport.post(
            webhook.url,
            body,
            headers,
            timeout=settings.WEBHOOK_TIMEOUT_SECONDS,
            total_timeout=settings.WEBHOOK_TOTAL_TIMEOUT_SECONDS,
        )
        error = classify(status)
    except transport.DeliveryError as exc:
        error = exc
    except SoftTimeLimitExceeded:
        # The task must end: record the attempt and release the claim first, or the row
        # would stay "sending" until the stuck sweep.
        _record_failure(delivery, INTERRUPTED_ERROR, claimed_at)
        raise
    except Exception as exc:  # a bug: recorded like a transient error, then it fails
        logger.exception("Webhook delivery %s: unexpected error", delivery.id)
        error = transport.DeliveryError(type(exc).__name__, permanent=False)
    if error is None:
        delivery.record_sent(timezone.now())
        _save_outcome(delivery, claimed_at)
    else:
        _record_failure(delivery, str(error), claimed_at, permanent=error.permanent)
    if delivery.status == Status.SENT:
        return SendOutcome.SENT
    return SendOutcome.FAILED if delivery.status == Status.FAILED else SendOutcome.RETRYING


def _record_failure(
    delivery: WebhookDelivery, error: str, claimed_at: datetime, *, permanent: bool = False
) -> None:
    """Count a failed attempt of the delivery claimed at ``claimed_at``, log and save it."""
    delivery.record_failure(
        error, timezone.now(), permanent=permanent, max_attempts=settings.WEBHOOK_MAX_ATTEMPTS
    )
    # Never the URL (a channel token) nor the body: the ids lead a moderator to them.
    logger.warning(
        "Webhook %s delivery %s: attempt %d failed (%s), now %s: %s",
        delivery.webhook_id,
        delivery.id,
        delivery.attempts,
        "permanent" if permanent else "transient",
        delivery.status,
        delivery.last_error,
    )
    _save_outcome(delivery, claimed_at)


def _save_outcome(delivery: WebhookDelivery, claimed_at: datetime, *, count_failure=True) -> None:
    # Guarded by our claim: if the sweep took the row back meanwhile, its outcome wins.
    with transaction.atomic():
        if count_failure and delivery.status == Status.FAILED:
            # Counted, it may disable the webhook, which changes the game's flag: the
            # game row first, as every writer of webhooks takes it (see lock_games).
            lock_games([delivery.webhook.game_id])
        saved = WebhookDelivery.objects.filter(
            id=delivery.id, status=Status.SENDING, claimed_at=claimed_at
        ).update(
            status=delivery.status,
            attempts=delivery.attempts,
            last_error=delivery.last_error,
            next_attempt_at=delivery.next_attempt_at,
            sent_at=delivery.sent_at,
        )
        if saved == 1 and count_failure:
            _count_on_webhook(delivery)
    if saved != 1:
        logger.warning(
            "Webhook delivery %s: outcome %s not saved, the sweep took the claim back",
            delivery.id,
            delivery.status,
        )


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
    """How long a claim is held before the sweep takes it back: longer than any task may
    run (``CELERY_TASK_TIME_LIMIT``, at which the worker kills it), so a post still under
    way is never handed to a second worker; a minute more for the machines' clocks."""
    return timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)


def requeue_stuck_deliveries(now: datetime) -> int:
    """Return deliveries claimed longer than ``stuck_after()`` ago to pending (their worker
    died: the post may have arrived, so delivery is at least once; the ``X-Piratz-Delivery``
    header lets a receiver drop the second copy). The lost attempt counts."""
    requeued = 0
    stuck = WebhookDelivery.objects.stuck(now, stuck_after())
    for delivery_id, attempts in stuck.values_list("id", "attempts"):
        giving_up = attempts + 1 >= settings.WEBHOOK_MAX_ATTEMPTS
        requeued += stuck.filter(id=delivery_id).update(
            status=Status.FAILED if giving_up else Status.PENDING,
            attempts=F("attempts") + 1,
            last_error=STUCK_ERROR,
            next_attempt_at=now,
        )
    return requeued


def sweep_budget_seconds() -> float:
    """How long a sweep may go on starting posts: its last post still ends before the
    task's soft time limit (``CELERY_TASK_SOFT_TIME_LIMIT``)."""
    longest_post = settings.WEBHOOK_TOTAL_TIMEOUT_SECONDS + LOOKUP_ALLOWANCE_SECONDS
    return settings.CELERY_TASK_SOFT_TIME_LIMIT - longest_post


def send_due_deliveries(
    limit: int | None = None, *, budget_seconds: float | None = None
) -> SweepResult:
    """Requeue stuck deliveries, then post the due ones, oldest first: ``limit`` at most,
    and none started after ``budget_seconds`` (at least one is tried).

    Claimed one at a time (``claim_first``, which passes over other sweeps' rows), so a
    sweep that ends, or is stopped at its time limit, holds no claim it has not posted.
    """
    now = timezone.now()
    requeued = requeue_stuck_deliveries(now)
    due = WebhookDelivery.objects.due(now).order_by("next_attempt_at", "id")
    stop_at = None if budget_seconds is None else time.monotonic() + budget_seconds
    outcomes = Counter()
    while (tried := outcomes.total()) != limit:
        if tried and stop_at is not None and time.monotonic() >= stop_at:
            break
        claimed_at = timezone.now()
        claimed = due.claim_first(1, claimed_at)
        if not claimed:
            break
        outcomes[_post_claimed(claimed[0], claimed_at)] += 1
    return SweepResult(requeued=requeued, **{str(k): v for k, v in outcomes.items()})
