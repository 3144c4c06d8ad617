"""Devices subscribed to Web Push (RFC 8030) and the outbox of push messages to them."""

from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db import models
from django.utils import timezone

from notifications.delivery import DeliveryQuerySet, DeliveryRow

MAX_ENDPOINT_LENGTH = 1000


def endpoint_origin(endpoint: str) -> str:
    """``scheme://host[:port]`` of a push endpoint: what may be shown or logged of it (its
    path names the device at the push service), and the VAPID token's audience."""
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}"


class PushSubscription(models.Model):
    """One browser of a person that agreed to get push messages (``PushManager.subscribe``).

    ``endpoint`` is the push service's URL for this browser (unique: a browser that passes
    to another account moves with it); ``p256dh`` and ``auth`` are the browser's public
    key and secret (base64url) that each message is encrypted for (RFC 8291). The service
    removes the row when the push service answers 404 or 410 (the browser unsubscribed).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.CharField(max_length=MAX_ENDPOINT_LENGTH, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=50)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"Push subscription {self.pk} ({self.origin})"

    @property
    def origin(self) -> str:
        return endpoint_origin(self.endpoint)


class PushDeliveryQuerySet(DeliveryQuerySet["PushDelivery"]):
    """The push outbox's conditions (``due``, ``stuck``, the claims): the machine's."""


class PushDelivery(DeliveryRow):
    """One push message to one subscription, by the delivery machine
    (``notifications.delivery``), as a webhook post: ``pending`` until ``next_attempt_at``,
    ``sending`` under one worker's claim, then ``sent``, retried after transient failures,
    or ``failed``. ``payload`` is what the device shows: ``{title, body, url}``, public
    information only (no hand, no draw order, no credential: the link is the game page).
    ``send_check`` is the one its email asks (``notifications.send_checks``): the turn
    news waits while its player is at the table. A removed subscription leaves its rows,
    as a record (``subscription`` null): they fail unsent."""

    DUE_FIELD = "next_attempt_at"

    subscription = models.ForeignKey(
        PushSubscription, on_delete=models.SET_NULL, null=True, related_name="deliveries"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_deliveries"
    )
    kind = models.CharField(max_length=20)
    payload = models.JSONField()
    send_check = models.JSONField(null=True, blank=True)
    # status, attempts, last_error, sent_at, claimed_at: DeliveryRow's.
    next_attempt_at = models.DateTimeField(default=timezone.now)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    objects = PushDeliveryQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "push deliveries"
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                condition=models.Q(status="pending"),
                name="push_delivery_due_idx",
            ),
            models.Index(
                fields=["claimed_at"],
                condition=models.Q(status="sending"),
                name="push_delivery_stuck_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} push #{self.id} ({self.status})"

    @classmethod
    def stuck_after(cls) -> timedelta:
        """Longer than any task may run (the worker is killed at ``CELERY_TASK_TIME_LIMIT``),
        and a minute more for the machines' clocks."""
        return timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)

    def log_label(self) -> str:
        # Never the endpoint (it names the device) nor the payload.
        return f"Push subscription {self.subscription_id} delivery {self.pk}"
