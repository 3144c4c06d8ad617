"""Seeks in the moderators' admin: read only, as every change goes through
``quickmatch.actions`` (a suspension, audited in the people's admin, already keeps a
person's seeks out of pairing; a matched seek's game is acted on in the games' admin)."""

from django.contrib import admin

from .models import Seek


@admin.register(Seek)
class SeekAdmin(admin.ModelAdmin):
    list_display = [
        "created_at",
        "user",
        "kind",
        "players",
        "rated",
        "rating",
        "rating_range",
        "status",
        "expires_at",
        "game",
    ]
    list_filter = ["status", "kind", "players", "rated"]
    search_fields = ["user__email", "user__display_name", "user__public_id"]
    list_select_related = ["user", "game"]
    date_hierarchy = "created_at"
    fields = (
        "id",
        "user",
        "kind",
        "players",
        "turn_hours_min",
        "turn_hours_max",
        "rated",
        "rating",
        "rating_range",
        "status",
        "created_at",
        "expires_at",
        "ended_at",
        "game",
    )
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
