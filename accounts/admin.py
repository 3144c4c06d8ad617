"""Moderators' admin for users, API keys (never the keys themselves), login links, settings."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin

from moderation.admin import suspend_users, unsuspend_users

from .forms import UserChangeForm, UserCreationForm
from .models import ApiToken, LoginLink, NotificationSettings, User, Vacation


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    """Django's user admin for a user identified by email, without username or password fields."""

    form = UserChangeForm
    add_form = UserCreationForm
    list_display = ("email", "display_name", "is_staff", "is_active", "date_joined")
    list_filter = ("is_staff", "is_superuser", "is_active", "groups")
    search_fields = ("email", "display_name")
    ordering = ("email",)
    readonly_fields = ("last_login", "date_joined", "suspended_at", "suspended_until")
    # Suspensions go through moderation.actions (they move game deadlines and write the
    # audit log), never through the form: the fields are shown read-only.
    actions = [suspend_users, unsuspend_users]
    fieldsets = (
        (None, {"fields": ("email", "display_name", "password")}),
        ("Suspension", {"fields": ("suspended_at", "suspended_until")}),
        (
            "Permissions",
            {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")},
        ),
        ("Dates", {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (None, {"classes": ("wide",), "fields": ("email", "display_name", "is_staff")}),
    )


class _ReadOnlyAdmin(admin.ModelAdmin):
    """Rows that only code creates; moderators may look and delete (revoke), not edit."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ApiToken)
class ApiTokenAdmin(_ReadOnlyAdmin):
    # key_hash is left out on purpose: keys are issued with `manage.py issue_token` and shown
    # only then; deleting a row here revokes the key.
    list_display = ("prefix", "user", "created_at", "last_used_at")
    fields = ("prefix", "user", "created_at", "last_used_at")
    search_fields = ("user__email", "prefix")
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
