"""The ratings in the admin: read only (``ratings.service`` is their one writer)."""

from django.contrib import admin

from .models import Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "display", "games", "updated_at"]
    list_filter = ["kind"]
    search_fields = ["user__email", "user__display_name"]
    readonly_fields = ["user", "kind", "mu", "sigma", "games", "updated_at"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "game", "rank", "players", "before", "after", "at"]
    list_filter = ["kind"]
    search_fields = ["user__email", "user__display_name"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
