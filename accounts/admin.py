"""Moderators' admin for users, API keys (never the keys themselves), login links, settings."""

from typing import TYPE_CHECKING, TypedDict

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.models import Seat
from games.queries import automatic_moves_of_player
from moderation.admin import suspend_users, unsuspend_users
from moderation.models import Report

from .forms import UserChangeForm, UserCreationForm
from .models import ApiToken, LoginLink, NotificationSettings, User, Vacation

if TYPE_CHECKING:
    # django-stubs-ext is a test requirement: only the type checker reads it.
    from django_stubs_ext import WithAnnotations


class _Counts(TypedDict):
    """What the user admin's queryset annotates each user with (see get_queryset)."""

    game_count: int
    automatic_move_count: int
    report_count: int


class SuspendedFilter(admin.SimpleListFilter):
    """Players suspended now (a suspension with an end date that passed is over)."""

    title = "suspended"
    parameter_name = "suspended"

    def lookups(self, request, model_admin):
        return [("yes", "suspended now")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(User.suspended_q(timezone.now()))
        return queryset


class _LookOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class PlayerSeatInline(_LookOnlyInline):
    """The player's games: one row per seat, the game linking to its own page."""

    model = Seat
    fields = ("game", "game_status", "seat", "accepted_at", "declined_at")
    readonly_fields = fields
    verbose_name = "game"
    verbose_name_plural = "games (newest first)"
    ordering = ("-game__created_at",)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("game")

    @admin.display(description="status")
    def game_status(self, seat: Seat) -> str:
        return seat.game.get_status_display()


class ReportAgainstInline(_LookOnlyInline):
    """Reports other players filed against this player; resolved in the reports' queue."""

    model = Report
    fk_name = "reported_user"
    fields = ("created_at", "status", "category", "reporter", "game", "text")
    readonly_fields = fields
    verbose_name_plural = "reports against this player"
    ordering = ("status", "-created_at")

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("reporter", "game")


def _count_of(queryset, field: str) -> Coalesce:
    """The number of rows of ``queryset`` whose ``field`` is the listed user."""
    rows = queryset.filter(**{field: OuterRef("pk")}).order_by().values(field)
    return Coalesce(
        Subquery(rows.annotate(n=Count("pk")).values("n")[:1]), 0, output_field=IntegerField()
    )


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    """Django's user admin for a user identified by email, without username or password fields."""

    form = UserChangeForm
    add_form = UserCreationForm
    list_display = (
        "email",
        "display_name",
        "games",
        "automatic_moves",
        "reports_against",
        "suspended",
        "is_staff",
        "is_active",
        "date_joined",
    )
    list_filter = (SuspendedFilter, "is_staff", "is_superuser", "is_active", "groups")
    search_fields = ("email", "display_name")
    ordering = ("email",)
    readonly_fields = ("last_login", "date_joined", "suspended_at", "suspended_until")
    # Suspensions go through moderation.actions (they move game deadlines and write the
    # audit log), never through the form: the fields are shown read-only.
    actions = [suspend_users, unsuspend_users]
    inlines = [PlayerSeatInline, ReportAgainstInline]
    fieldsets = (
        (None, {"fields": ("email", "display_name", "language", "password")}),
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

    def get_queryset(self, request):
        # Subqueries, not joined COUNTs: a join per relation would multiply each other.
        return (
            super()
            .get_queryset(request)
            .annotate(
                game_count=_count_of(Seat.objects.all(), "user"),
                automatic_move_count=automatic_moves_of_player(),
                report_count=_count_of(Report.objects.all(), "reported_user"),
            )
        )

    def get_inlines(self, request, obj):
        return self.inlines if obj is not None else []  # a new user has neither

    @admin.display(description="games", ordering="game_count")
    def games(self, user: "WithAnnotations[User, _Counts]") -> int:
        return user.game_count

    @admin.display(description="automatic moves", ordering="automatic_move_count")
    def automatic_moves(self, user: "WithAnnotations[User, _Counts]") -> int:
        return user.automatic_move_count

    @admin.display(description="reports against", ordering="report_count")
    def reports_against(self, user: "WithAnnotations[User, _Counts]") -> int:
        return user.report_count

    @admin.display(description="suspended", boolean=True)
    def suspended(self, user: User) -> bool:
        return user.is_suspended()


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
