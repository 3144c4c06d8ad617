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


class Follow(models.Model):
    """``follower`` follows ``player``: told by email when ``player`` starts a public game
    (docs/people.md "Following"). Never oneself; once per pair."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows_made"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["follower", "player"], name="follow_once"),
            models.CheckConstraint(condition=~Q(follower=models.F("player")), name="follow_other"),
        ]
        # "Who follows the players of the game that just started?": by player.
        indexes = [models.Index(fields=["player", "follower"], name="follow_by_player")]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.player_id}"


class FollowedGame(models.Model):
    """``user`` follows ``game`` (a public one they hold no seat in): told by email when it
    ends. ``told_at`` is set when that email is queued: a game ends once, and a second
    ``game_ended`` finds nobody left to tell."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followed_games"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="followed_by")
    created_at = models.DateTimeField(auto_now_add=True)
    told_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="followed_game_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} follows game {self.game_id}"


class StartNotice(models.Model):
    """``follower`` was told that a player they follow started ``game`` (a public one):
    the row that makes that email go at most once per follower and game, whichever and
    however many of its players they follow."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="start_notices"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "follower"], name="start_notice_once"),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} told of game {self.game_id}"
