"""Moderators' admin for API keys (never the keys themselves), login links, settings, vacations.

The page of a person (``User``) is ``moderation.admin``'s: it shows their games and the
reports against them and offers suspension, which live on floors above accounts.
"""

from django.contrib import admin

from .models import ApiToken, LoginLink, NotificationSettings, Vacation


class _ReadOnlyAdmin(admin.ModelAdmin):
    """Rows that only code creates; moderators may look and delete (revoke), not edit."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ApiToken)
class ApiTokenAdmin(_ReadOnlyAdmin):
    # key_hash is left out on purpose: keys are issued with `manage.py issue_token` or by
    # their owner (/api/me/api-keys/) and shown only then; deleting a row revokes the key.
    list_display = ("prefix", "name", "user", "created_at", "last_used_at")
    fields = ("prefix", "name", "user", "created_at", "last_used_at")
    search_fields = ("user__email", "prefix", "name")
    list_select_related = ("user",)
    ordering = ("-created_at",)


@admin.register(LoginLink)
class LoginLinkAdmin(_ReadOnlyAdmin):
    # No nonce: the stored hash cannot log anyone in, but there is nothing to see in it either.
    list_display = ("email", "created_at", "used_at")
    fields = ("email", "created_at", "used_at")
    search_fields = ("email",)
    date_hierarchy = "created_at"
    ordering = ("-created_at",)


class _LookOnlyAdmin(_ReadOnlyAdmin):
    """Rows changed only by the person through ``accounts.preferences``'s actions, which
    also move game deadlines; an edit or delete here would bypass that."""

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(NotificationSettings)
class NotificationSettingsAdmin(_LookOnlyAdmin):
    list_display = ("user", "mode", "time_zone", "quiet_start", "quiet_end", "next_digest_at")
    list_filter = ("mode",)
    search_fields = ("user__email",)
    list_select_related = ("user",)
    ordering = ("user__email",)


@admin.register(Vacation)
class VacationAdmin(_LookOnlyAdmin):
    list_display = ("user", "starts_at", "ends_at", "created_at")
    search_fields = ("user__email",)
    list_select_related = ("user",)
    date_hierarchy = "starts_at"
    ordering = ("-starts_at",)
