"""Admin for the outbox: moderators see every email and why it failed, and can retry it."""

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.defaultfilters import truncatechars

from . import outbox
from .models import OutboundEmail


@admin.register(OutboundEmail)
class OutboundEmailAdmin(admin.ModelAdmin):
    """Read-only: an email is a record of what was sent; only "Retry now" changes one."""

    list_display = ("to", "subject", "status", "attempts", "created_at", "sent_at", "error")
    list_filter = ("status", "template")
    search_fields = ("to", "topic", "subject")
    ordering = ("-id",)  # newest first, by the primary key index
    actions = ("retry_now",)
    fieldsets = (
        (None, {"fields": ("to", "subject", "template", "topic")}),
        (
            "Delivery",
            {
                "fields": (
                    "status",
                    "attempts",
                    "last_error",
                    "created_at",
                    "send_after",
                    "claimed_at",
                    "sent_at",
                )
            },
        ),
        ("Content", {"fields": ("body_text", "body_html")}),
    )
    readonly_fields = tuple(field for _, options in fieldsets for field in options["fields"])

    @admin.display(description="last error")
    def error(self, email: OutboundEmail) -> str:
        return truncatechars(email.last_error, 80)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # emails come from queue_email, rendered from templates

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # keep the record of what was sent to whom

    @admin.action(description="Retry now", permissions=["change"])
    def retry_now(self, request: HttpRequest, queryset: QuerySet[OutboundEmail]) -> None:
        selected = queryset.count()
        retried = outbox.retry_emails_now(queryset.values_list("id", flat=True))
        self.message_user(request, f"{retried} of {selected} emails will be sent again now.")
        if retried < selected:
            self.message_user(
                request,
                "Emails already sent or being sent were left alone.",
                level=messages.WARNING,
            )
