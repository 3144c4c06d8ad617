"""The moderators' admin for the audit log, reports and suspensions.

Audit entries are read-only for everybody, superusers included: no add, change or delete,
here or inline on a game's page. Suspending, unsuspending and resolving are admin actions
that ask for a reason and call ``moderation.actions``, which write the audit entry.
"""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.template.response import TemplateResponse
from django.utils import timezone

from core.errors import ServiceError
from moderation import actions
from moderation.forms import ReasonForm, reason_field
from moderation.models import AuditEntry, Report

_CONFIRM_TEMPLATE = "admin/moderation/confirm.html"


class SuspendForm(ReasonForm):
    until = forms.DateTimeField(
        required=False,
        help_text="UTC, e.g. 2026-12-24 18:00. Leave empty to suspend until a moderator "
        "unsuspends.",
    )

    def clean_until(self):
        until = self.cleaned_data["until"]
        if until is not None and until <= timezone.now():
            raise forms.ValidationError("The suspension must end in the future.")
        return until


class ResolveForm(ReasonForm):
    reason = reason_field(
        "What you found and did; it is written to the audit log. The reporter is "
        "only told that the report was handled.",
        label="Note",
    )


def confirmed_action(modeladmin, request, queryset, *, name, title, form_class, run):
    """An admin action in two steps: a page listing the rows and asking ``form_class``'s
    questions, then (when its form posts back valid) ``run(row, cleaned_data)`` per row.

    ``run`` calls a ``do_*`` action; a ``ServiceError`` is reported for that row and the
    others still run. Returns the page to show, or None for the list with its messages.
    """
    form = form_class(request.POST if "confirm" in request.POST else None)
    if form.is_valid():
        done = 0
        for row in queryset:
            try:
                run(request.user, row, form.cleaned_data)
                done += 1
            except ServiceError as error:
                # Not led by the row: the admin capitalises a message's first letter,
                # which turned "anna@example.com" into "Anna@example.com".
                modeladmin.message_user(
                    request, f"Not done for {row}: {error.detail}", messages.WARNING
                )
        if done:
            modeladmin.message_user(
                request,
                f"{title}: {done} done. Reason: {form.cleaned_data['reason']}",
                messages.SUCCESS,
            )
        return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "opts": modeladmin.model._meta,
        "rows": list(queryset),
        "action_name": name,
        "action_checkbox_name": ACTION_CHECKBOX_NAME,
        "form": form,
    }
    return TemplateResponse(request, _CONFIRM_TEMPLATE, context)


# --- Actions on players (hooked into accounts.admin.UserAdmin) -----------------------------


@admin.action(description="Suspend the selected players")
def suspend_users(modeladmin, request, queryset):
    return confirmed_action(
        modeladmin,
        request,
        queryset,
        name="suspend_users",
        title="Suspend the players",
        form_class=SuspendForm,
        run=lambda moderator, user, data: actions.do_suspend_user(
            moderator, user, data["reason"], until=data["until"]
        ),
    )


@admin.action(description="Unsuspend the selected players")
def unsuspend_users(modeladmin, request, queryset):
    return confirmed_action(
        modeladmin,
        request,
        queryset,
        name="unsuspend_users",
        title="Unsuspend the players",
        form_class=ReasonForm,
        run=lambda moderator, user, data: actions.do_unsuspend_user(
            moderator, user, data["reason"]
        ),
    )


# --- The audit log --------------------------------------------------------------------------

_AUDIT_FIELDS = ("at", "moderator", "action", "game", "target_user", "reason", "extra")


class _NeverWritable:
    """No add, change or delete, whoever asks (superusers too): the log is evidence."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class AuditEntryInline(_NeverWritable, admin.TabularInline):
    """A game's audit entries on its admin page, beside its move log."""

    model = AuditEntry
    fk_name = "game"
    extra = 0
    fields = _AUDIT_FIELDS
    readonly_fields = _AUDIT_FIELDS
    ordering = ["at", "id"]
    verbose_name_plural = "audit log (moderator actions)"


@admin.register(AuditEntry)
class AuditEntryAdmin(_NeverWritable, admin.ModelAdmin):
    list_display = ["at", "moderator", "action", "game", "target_user", "reason"]
    list_filter = ["action", "at"]
    search_fields = ["moderator__email", "target_user__email", "game__id", "reason"]
    list_select_related = ["moderator", "target_user", "game"]
    date_hierarchy = "at"
    fields = _AUDIT_FIELDS
    readonly_fields = _AUDIT_FIELDS


# --- Reports ----------------------------------------------------------------------------------


_REPORT_FIELDS = (
    "status",
    "category",
    "text",
    "created_at",
    "reporter",
    "game",
    "reported_user",
    "resolved_at",
    "resolved_by",
)


@admin.register(Report)
class ReportAdmin(_NeverWritable, admin.ModelAdmin):
    """The moderators' queue: open reports first, newest first. Reports are filed by
    players and resolved with the action below, never edited."""

    list_display = ["id", "status", "category", "created_at", "reporter", "game", "reported_user"]
    list_filter = ["status", "category"]
    search_fields = ["reporter__email", "reported_user__email", "game__id", "text"]
    list_select_related = ["reporter", "reported_user", "game"]
    ordering = ["status", "-created_at"]  # "open" sorts before "resolved"
    fields = _REPORT_FIELDS
    readonly_fields = _REPORT_FIELDS
    actions = ["resolve_reports"]

    @admin.action(description="Resolve the selected reports (with a note)")
    def resolve_reports(self, request, queryset):
        return confirmed_action(
            self,
            request,
            queryset,
            name="resolve_reports",
            title="Resolve the reports",
            form_class=ResolveForm,
            run=lambda moderator, report, data: actions.do_resolve_report(
                moderator, report.pk, data["reason"]
            ),
        )
