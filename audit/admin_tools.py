"""What every app's admin pages use of the audit log: ``confirmed_action``, an admin action
confirmed with a reason before it runs, and a game's entries shown on its page.

Here, not in an ``admin`` module: an app's ``admin`` is loaded by Django's autodiscovery
and imported by nothing, so each app's admin imports these from the floor below it.
Audit entries are read-only for everybody, superusers included (``NeverWritable``): no
add, change or delete, on the log's own page (``audit.admin``) or inline on a game's.
"""

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.template.response import TemplateResponse

from audit.models import AuditEntry
from core.errors import ServiceError

CONFIRM_TEMPLATE = "admin/audit/confirm.html"

AUDIT_FIELDS = ("at", "moderator", "action", "game", "target_user", "reason", "extra")


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
    return TemplateResponse(request, CONFIRM_TEMPLATE, context)


class NeverWritable:
    """No add, change or delete, whoever asks (superusers too): the log is evidence, and
    so is what moderators resolve (reports)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class AuditEntryInline(NeverWritable, admin.TabularInline):
    """A game's audit entries on its admin page, beside its move log."""

    model = AuditEntry
    fk_name = "game"
    extra = 0
    fields = AUDIT_FIELDS
    readonly_fields = AUDIT_FIELDS
    ordering = ["at", "id"]
    verbose_name_plural = "audit log (moderator actions)"
