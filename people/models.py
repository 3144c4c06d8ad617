"""Whom a player blocks (and, built beside it, whom and what they follow)."""

from django.conf import settings
from django.db import models
from django.db.models import Q


class Block(models.Model):
    """``blocker`` blocks ``blocked``: the two never meet (docs/people.md "Blocking").

    The blocked person cannot invite, challenge or message the blocker, is not paired with
    them by quick match or (where avoidable) a Swiss round, and is never told: every
    refusal they meet reads as one anybody could meet. A block counts both ways for
    meeting (``people.blocks.blocked_ids``); only the blocker may lift it.
    """

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_received"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(condition=~Q(blocker=models.F("blocked")), name="block_other"),
        ]
        # "Whom has this person blocked, and who has blocked them?": both directions.
        indexes = [models.Index(fields=["blocked", "blocker"], name="block_by_blocked")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"
