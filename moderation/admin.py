"""The moderators' admin for people, their suspensions and players' reports.

A person's page (accounts' ``User``) is here, not in ``accounts.admin``: it shows their
games and the reports against them and offers suspension, all on floors above accounts.
Reports are read-only for everybody, superusers included. Suspending, unsuspending and
resolving are admin actions that ask for a reason (``audit.admin_tools.confirmed_action``)
and call ``moderation.actions``, which write the audit entry.
"""

from typing import TYPE_CHECKING, TypedDict

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.forms import UserChangeForm, UserCreationForm
from accounts.models import User
from audit.admin_tools import NeverWritable, confirmed_action
from audit.forms import ReasonForm, reason_field
from games.models import Seat
from games.queries import automatic_moves_of_player
from moderation import actions
from moderation.models import Report

if TYPE_CHECKING:
    # django-stubs-ext is a test requirement: only the type checker reads it.
    from django_stubs_ext import WithAnnotations


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


# --- A person's page: their games, the reports against them, suspension ------------------


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
    """Django's user admin for a user identified by email, without username or password
    fields: their games and automatic moves, the reports against them, their suspension."""

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
class ReportAdmin(NeverWritable, admin.ModelAdmin):
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
