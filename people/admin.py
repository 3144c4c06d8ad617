"""Moderators' admin for people: who follows and blocks whom, read-only (the rows are the
players' own choices; only ``people.actions`` writes them)."""

from django.contrib import admin

from .models import Block, Follow, FollowedGame


class _ReadOnly(admin.ModelAdmin):
    """Look, never write: a moderator who changed a block would tell its people of it."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Block)
class BlockAdmin(_ReadOnly):
    list_display = ("created_at", "blocker", "blocked")
    search_fields = ("blocker__email", "blocked__email", "blocker__public_id", "blocked__public_id")
    list_select_related = ("blocker", "blocked")
    date_hierarchy = "created_at"


@admin.register(Follow)
class FollowAdmin(_ReadOnly):
    list_display = ("created_at", "follower", "player")
    search_fields = ("follower__email", "player__email", "follower__public_id", "player__public_id")
    list_select_related = ("follower", "player")
    date_hierarchy = "created_at"


@admin.register(FollowedGame)
class FollowedGameAdmin(_ReadOnly):
    list_display = ("created_at", "user", "game", "told_at")
    search_fields = ("user__email", "game__id")
    list_select_related = ("user", "game")
    list_filter = ("told_at",)
