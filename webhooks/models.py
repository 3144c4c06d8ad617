"""Webhooks and their deliveries: an outbox of HTTP posts, written with the move causing them."""

import uuid
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from core.outbound.transport import OutboundPosts, masked_url
from notifications.delivery import DeliveryQuerySet, DeliveryRow

# Where webhooks post (core.outbound): URLs as long as ``Webhook.url``'s column; plain
# http:// and loopback addresses only under WEBHOOKS_ALLOW_INSECURE_LOCALHOST (tests and
# local runs).
WEBHOOK_POSTS = OutboundPosts(
    max_url_length=500,
    loopback_setting="WEBHOOKS_ALLOW_INSECURE_LOCALHOST",
    user_agent="Piratz-Webhooks/1",
)


class WebhookKind(models.TextChoices):
    DISCORD = "discord", "Discord"
    SLACK = "slack", "Slack"
    JSON = "json", "JSON (signed)"


class Webhook(models.Model):
    """A URL that one player of a game gets told of the game's moves and end at.

    The URL itself is a credential for chat services (whoever holds a Discord or Slack
    webhook URL can post to the channel), so it is shown only masked (``masked_url``) once
    stored: to moderators, in the API and in logs. The signing secret of a ``json`` webhook
    is not stored at all: ``webhooks.signing.secret_for`` derives it from ``SECRET_KEY`` and
    the id, which is why the id is a random UUID (never reused, not guessable).

    Enabled until ``disabled_at``: deliveries that failed for good (a permanent refusal,
    or retries exhausted) count in ``consecutive_failures``, a delivered one resets it;
    ``WEBHOOK_DISABLE_AFTER_FAILURES`` of them in a row disable the webhook, and
    ``disabled_reason`` tells the owner and the moderators why.
    """

    MAX_URL_LENGTH = WEBHOOK_POSTS.max_url_length

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="webhooks")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks"
    )
    kind = models.CharField(max_length=10, choices=WebhookKind.choices)
    url = models.CharField(max_length=MAX_URL_LENGTH)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    disabled_at = models.DateTimeField(null=True, blank=True)
    disabled_reason = models.TextField(blank=True)
    consecutive_failures = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            # Every applied move in a game with webhooks (Game.has_webhooks) asks "which
            # enabled webhooks does this game have?", and refresh_has_webhooks "any?".
            models.Index(
                fields=["game"],
                condition=models.Q(disabled_at__isnull=True),
                name="webhook_game_enabled",
            ),
        ]

    def __str__(self) -> str:
        state = "disabled" if self.disabled_at else "enabled"
        return f"{self.kind} webhook {self.masked_url} ({state})"

    @property
    def enabled(self) -> bool:
        return self.disabled_at is None

    @property
    def masked_url(self) -> str:
        """The URL without its path and query, which hold the channel's token for chat
        services: ``https://discord.com/…``."""
        return masked_url(self.url)


class WebhookDeliveryQuerySet(DeliveryQuerySet["WebhookDelivery"]):
    """The delivery outbox's conditions (``due``, ``stuck``, the claims): the machine's."""


class WebhookDelivery(DeliveryRow):
    """One post of one event to one webhook: ``body`` is the JSON sent, fixed when queued.

    Life cycle as an outbound email's, by the same delivery machine
    (``notifications.delivery.DeliveryRow``): ``pending`` (due at ``next_attempt_at``) →
    ``sending`` (claimed by one worker at ``claimed_at``) → ``sent``; or back to
    ``pending`` after a transient failure, with the one backoff (``retry_delay``); or
    ``failed`` after a permanent one, the ``WEBHOOK_MAX_ATTEMPTS``-th attempt, or because
    its webhook was disabled. ``webhooks.delivery`` is its transport. ``body`` holds only
    public information (see ``webhooks.payloads``).
    """

    DUE_FIELD = "next_attempt_at"

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=20)
    body = models.JSONField()
    # status, attempts, last_error, sent_at, claimed_at: DeliveryRow's.
    next_attempt_at = models.DateTimeField(default=timezone.now)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    objects = WebhookDeliveryQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "webhook deliveries"
        ordering = ["created_at", "id"]
        indexes = [
            # WebhookDelivery.objects.due(), for the every-minute sweep (sent rows pile up).
            models.Index(
                fields=["next_attempt_at"],
                condition=models.Q(status="pending"),
                name="webhook_delivery_due_idx",
            ),
            # WebhookDelivery.objects.stuck(): the sweep returns them to pending.
            models.Index(
                fields=["claimed_at"],
                condition=models.Q(status="sending"),
                name="webhook_delivery_stuck_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} #{self.id} ({self.status})"

    @classmethod
    def stuck_after(cls) -> timedelta:
        """Longer than any task may run (``CELERY_TASK_TIME_LIMIT``, at which the worker
        kills it), so a post still under way is never handed to a second worker; a minute
        more for the machines' clocks."""
        return timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)

    def log_label(self) -> str:
        # Never the URL (a channel token) nor the body: the ids lead a moderator to them.
        return f"Webhook {self.webhook_id} delivery {self.pk}"
