"""The moderators' admin for the audit log: every entry, read-only for everybody."""

from django.contrib import admin

from audit.admin_tools import AUDIT_FIELDS, NeverWritable
from audit.models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(NeverWritable, admin.ModelAdmin):
    list_display = ["at", "moderator", "action", "game", "target_user", "reason"]
    list_filter = ["action", "at"]
    search_fields = ["moderator__email", "target_user__email", "game__id", "reason"]
    list_select_related = ["moderator", "target_user", "game"]
    date_hierarchy = "at"
    fields = AUDIT_FIELDS
    readonly_fields = AUDIT_FIELDS
