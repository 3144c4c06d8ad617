"""Moderators' admin for table talk: read messages, hide or show them with a reason (audited)."""

from django.contrib import admin

from audit.admin_tools import confirmed_action
from audit.forms import ReasonForm

from . import actions
from .models import Message, MessageReport


@admin.action(description="Hide the selected messages")
def hide_messages(modeladmin, request, queryset):
    return confirmed_action(
        modeladmin,
        request,
        queryset,
        name="hide_messages",
        title="Hide the messages",
        form_class=ReasonForm,
        run=lambda moderator, message, data: actions.do_hide_message(
            moderator, message.pk, data["reason"]
        ),
    )


@admin.action(description="Show the selected hidden messages again")
def unhide_messages(modeladmin, request, queryset):
    return confirmed_action(
        modeladmin,
        request,
        queryset,
        name="unhide_messages",
        title="Show the messages again",
        form_class=ReasonForm,
        run=lambda moderator, message, data: actions.do_unhide_message(
            moderator, message.pk, data["reason"]
        ),
    )


class _NoWriting(admin.ModelAdmin):
    """Rows only the talk actions write: look, and act through the admin actions."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Message)
class MessageAdmin(_NoWriting):
    list_display = ("created_at", "game", "seat", "author", "text", "hidden_at", "hidden_by")
    list_filter = ("hidden_at",)
    search_fields = ("text", "author__email", "game__id")
    list_select_related = ("author", "hidden_by", "game")
    fields = (
        "game",
        "seat",
        "author",
        "text",
        "created_at",
        "hidden_at",
        "hidden_by",
        "hidden_reason",
    )
    readonly_fields = fields
    date_hierarchy = "created_at"
    actions = [hide_messages, unhide_messages]


@admin.register(MessageReport)
class MessageReportAdmin(_NoWriting):
    list_display = ("created_at", "message", "reporter", "reason", "resolved_at")
    list_filter = ("resolved_at",)
    list_select_related = ("message", "reporter")
    fields = ("message", "reporter", "reason", "created_at", "resolved_at")
    readonly_fields = fields
