"""Admin for webhooks: moderators see each webhook (its URL masked), why it was disabled,
and its deliveries; read-only, as the owner alone adds and deletes webhooks."""

from django.contrib import admin

from .models import Webhook, WebhookDelivery


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class WebhookDeliveryInline(admin.TabularInline):
    model = WebhookDelivery
    fields = ("created_at", "event", "status", "attempts", "next_attempt_at", "last_error")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("-created_at", "-id")
    max_num = 0
    verbose_name_plural = "deliveries (newest first)"

    def get_queryset(self, request):
        # The newest only: an old game's webhook has a delivery per move.
        ids = super().get_queryset(request).order_by("-created_at", "-id").values("id")[:50]
        return super().get_queryset(request).filter(id__in=ids)


@admin.register(Webhook)
class WebhookAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "kind",
        "masked_url",
        "game",
        "owner",
        "created_at",
        "disabled_at",
        "consecutive_failures",
    )
    list_filter = ("kind", ("disabled_at", admin.EmptyFieldListFilter))
    search_fields = ("=game__id", "owner__email")
    list_select_related = ("game", "owner")
    fields = (
        "id",
        "kind",
        "masked_url",
        "game",
        "owner",
        "created_at",
        "disabled_at",
        "disabled_reason",
        "consecutive_failures",
    )
    readonly_fields = fields
    inlines = [WebhookDeliveryInline]

    @admin.display(description="URL (path hidden: it holds the channel's token)")
    def masked_url(self, webhook: Webhook) -> str:
        return webhook.masked_url


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnlyAdmin):
    list_display = ("id", "webhook", "event", "status", "attempts", "created_at", "sent_at")
    list_filter = ("status", "event")
    list_select_related = ("webhook",)
    search_fields = ("=webhook__id",)
    fields = (
        "webhook",
        "event",
        "status",
        "attempts",
        "next_attempt_at",
        "claimed_at",
        "created_at",
        "sent_at",
        "last_error",
        "body",
    )
    readonly_fields = fields
