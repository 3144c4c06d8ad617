"""Moderators see push subscriptions (by push service only) and the push outbox."""

from django.contrib import admin

from .models import PushDelivery, PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "origin", "created_at", "last_used_at"]
    # The endpoint names the device and the keys decrypt its messages: not shown.
    fields = readonly_fields = ("user", "origin", "created_at", "last_used_at")
    search_fields = ["user__email"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(PushDelivery)
class PushDeliveryAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "kind", "status", "attempts", "next_attempt_at", "sent_at"]
    list_filter = ["status", "kind"]
    fields = readonly_fields = (
        "user",
        "subscription",
        "kind",
        "status",
        "attempts",
        "last_error",
        "next_attempt_at",
        "sent_at",
        "created_at",
    )

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
