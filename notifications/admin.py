"""Admin for the outbox: moderators see every email, each attempt's outcome, and resend.

Never a live credential: what may carry a signed link (subject, bodies, headers, error) is
shown through ``redact_tokens``, pending emails too, whose rows still hold their links.
"""

from typing import cast

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.defaultfilters import truncatechars
from django.template.response import TemplateResponse

from core.errors import ServiceError
from core.redaction import redact_text, redact_tokens

from .models import RETRYING, DeliveryAttempt, OutboundEmail
from .outbox import do_resend_emails

# Said on the confirmation page and after a resend: h3's redaction made the links of a
# finished email unusable on purpose, and a resend cannot bring them back.
REDACTED_LINKS_NOTE = (
    "Links in an email that was sent or failed for good were replaced by [redacted] "
    "(they were credentials): a resent copy carries [redacted] where a link was, so the "
    "player must ask for a new login link or open the game from the site."
)


class DeliveryFilter(admin.SimpleListFilter):
    """Where an email is in its delivery, beyond the status: the retries waiting."""

    title = "delivery"
    parameter_name = "delivery"

    def lookups(self, request, model_admin):
        return [("retrying", "Waiting to be retried after an error")]

    def queryset(self, request, queryset):
        if self.value() == "retrying":
            return queryset.filter(RETRYING)
        return queryset


class DeliveryAttemptInline(admin.TabularInline):
    """The error history: every attempt, its outcome and its (masked) error."""

    model = DeliveryAttempt
    fields = ("at", "outcome", "shown_error")
    readonly_fields = fields
    extra = 0
    can_delete = False
    verbose_name = "attempt"
    verbose_name_plural = "attempts (oldest first)"

    @admin.display(description="error")
    def shown_error(self, attempt: DeliveryAttempt) -> str:
        return redact_text(attempt.error)  # stored redacted; shown through it all the same

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class ResendForm(forms.Form):
    """Why a moderator resends: it goes to the audit log with each email."""

    reason = forms.CharField(
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 80}),
        help_text="Why you resend these emails; it is written to the audit log.",
    )


@admin.register(OutboundEmail)
class OutboundEmailAdmin(admin.ModelAdmin):
    """Read-only: an email is a record of what was sent; only "Retry now" changes one."""

    list_display = ("to", "shown_subject", "status", "attempts", "created_at", "sent_at", "error")
    list_filter = ("status", DeliveryFilter, "template")
    search_fields = ("to", "topic", "subject")
    ordering = ("-id",)  # newest first, by the primary key index
    actions = ("retry_now",)
    inlines = (DeliveryAttemptInline,)
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
    # Every entry of these fieldsets is one field's name (none is a row of several).
    readonly_fields = tuple(
        cast(str, field) for _, options in fieldsets for field in options["fields"]
    )

    @admin.display(description="last error")
    def error(self, email: OutboundEmail) -> str:
        return truncatechars(self.shown_last_error(email), 80)

    @admin.display(description="subject")
    def shown_subject(self, email: OutboundEmail) -> str:
        return redact_tokens(email.rendered().subject)

    @admin.display(description="last error")
    def shown_last_error(self, email: OutboundEmail) -> str:
        # Stored redacted since the redaction came in; rows from before may not be.
        return redact_text(email.last_error)

    @admin.display(description="body (text)")
    def shown_body_text(self, email: OutboundEmail) -> str:
        return redact_tokens(email.rendered().body_text)

    @admin.display(description="body (HTML source)")
    def shown_body_html(self, email: OutboundEmail) -> str:
        return redact_tokens(email.rendered().body_html)

    @admin.display(description="extra headers")
    def shown_headers(self, email: OutboundEmail) -> str:
        return "\n".join(
            f"{name}: {redact_tokens(str(value))}" for name, value in email.headers.items()
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # emails come from queue_email, rendered from templates

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # keep the record of what was sent to whom

    @admin.action(description="Resend now (asks for a reason)", permissions=["change"])
    def retry_now(self, request: HttpRequest, queryset: QuerySet[OutboundEmail]):
        """First call: the emails and a reason field; the confirmed second call resends.

        Resending goes through ``notifications.outbox.do_resend_emails``: one audit entry per
        email, and the attempt itself lands in the email's history when a worker makes it.
        """
        form = ResendForm(request.POST if "confirm" in request.POST else None)
        if form.is_valid():
            self._resend(request, queryset, form.cleaned_data["reason"])
            return None  # back to the list, which shows the messages
        context = {
            **self.admin_site.each_context(request),
            "title": "Resend emails now",
            "opts": self.model._meta,
            "emails": queryset.order_by("id"),
            "action_name": "retry_now",
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
            "form": form,
            "redacted_links_note": REDACTED_LINKS_NOTE,
        }
        return TemplateResponse(request, "admin/notifications/outboundemail/resend.html", context)

    def _resend(self, request: HttpRequest, queryset, reason: str) -> None:
        selected = queryset.count()
        try:
            resent = do_resend_emails(
                queryset.values_list("id", flat=True), request.user, reason=reason
            )
        except ServiceError as error:
            self.message_user(request, f"Nothing resent: {error.detail}", messages.ERROR)
            return
        self.message_user(request, f"{resent} of {selected} emails will be sent again now.")
        if resent:
            self.message_user(request, REDACTED_LINKS_NOTE, level=messages.INFO)
        if resent < selected:
            self.message_user(
                request,
                "Emails already sent or being sent were left alone.",
                level=messages.WARNING,
            )
