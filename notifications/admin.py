"""Admin for the outbox: moderators see every email and why it failed, and can retry it.

Never a live credential: what may carry a signed link (subject, bodies, headers, error) is
shown through ``redact_tokens``, pending emails too, whose rows still hold their links.
"""

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.defaultfilters import truncatechars

from piratz_site.redaction import redact_text, redact_tokens

from . import outbox
from .models import OutboundEmail


@admin.register(OutboundEmail)
class OutboundEmailAdmin(admin.ModelAdmin):
    """Read-only: an email is a record of what was sent; only "Retry now" changes one."""

    list_display = ("to", "shown_subject", "status", "attempts", "created_at", "sent_at", "error")
    list_filter = ("status", "template")
    search_fields = ("to", "topic", "subject")
    ordering = ("-id",)  # newest first, by the primary key index
    actions = ("retry_now",)
    fieldsets = (
        (None, {"fields": ("to", "shown_subject", "template", "topic")}),
        (
            "Delivery",
            {
                "fields": (
                    "status",
                    "attempts",
                    "shown_last_error",
                    "created_at",
                    "send_after",
                    "claimed_at",
                    "sent_at",
                )
            },
        ),
        ("Content", {"fields": ("shown_body_text", "shown_body_html", "shown_headers")}),
    )
    readonly_fields = tuple(field for _, options in fieldsets for field in options["fields"])

    @admin.display(description="last error")
    def error(self, email: OutboundEmail) -> str:
        return truncatechars(self.shown_last_error(email), 80)

    @admin.display(description="subject")
    def shown_subject(self, email: OutboundEmail) -> str:
        return redact_tokens(email.subject)

    @admin.display(description="last error")
    def shown_last_error(self, email: OutboundEmail) -> str:
        # Stored redacted since the redaction came in; rows from before may not be.
        return redact_text(email.last_error)

    @admin.display(description="body (text)")
    def shown_body_text(self, email: OutboundEmail) -> str:
        return redact_tokens(email.body_text)

    @admin.display(description="body (HTML source)")
    def shown_body_html(self, email: OutboundEmail) -> str:
        return redact_tokens(email.body_html)

    @admin.display(description="extra headers")
    def shown_headers(self, email: OutboundEmail) -> str:
        return "\n".join(
            f"{name}: {redact_tokens(str(value))}" for name, value in email.headers.items()
        )

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
