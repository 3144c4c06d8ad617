"""The moderators' view of games: find them, read their log, and act through games.actions.

Game rows are read-only here: a Save button writing every column, without the row lock
and version check of ``games.actions``, would put back the state a concurrent move had
just replaced. Moderators act only through the list's actions, each of which asks for a
reason and carries the version they saw to a ``do_*`` action that refuses a stale one.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, TypedDict

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.template.response import TemplateResponse
from django.utils import timezone

from audit.admin_tools import AuditEntryInline
from audit.forms import ReasonForm, reason_field
from games import actions, fairness
from games.models import Game, GameStatus, Move, Seat, SeatChange
from games.queries import automatic_moves_of_game, overdue, player_to_move

if TYPE_CHECKING:  # django-stubs-ext is a test-time package
    from django_stubs_ext import WithAnnotations


class _GameListColumns(TypedDict):
    """What ``GameAdmin.get_queryset`` annotates each game with."""

    automatic_move_count: int
    to_move_email: str | None


class WaitingOnPlayerFilter(admin.SimpleListFilter):
    """Active games whose current turn began more than N days ago: a player gone quiet."""

    title = "waiting on the player to move"
    parameter_name = "waiting_days"
    DAYS = (1, 3, 7)

    def lookups(self, request, model_admin):
        return [(str(days), f"more than {days} day{'s' if days > 1 else ''}") for days in self.DAYS]

    def queryset(self, request, queryset):
        chosen = self.value()
        if chosen is None or chosen not in {str(days) for days in self.DAYS}:
            return queryset
        since = timezone.now() - timedelta(days=int(chosen))
        return queryset.filter(status=GameStatus.ACTIVE, turn_started_at__lt=since)


class OverdueFilter(admin.SimpleListFilter):
    """The dashboard's alarm: deadline passed long enough ago that the sweep must be failing."""

    title = "deadline sweep"
    parameter_name = "overdue"

    def lookups(self, request, model_admin):
        return [("yes", "deadline passed over 15 minutes ago, not handled")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(overdue(timezone.now()))
        return queryset


class _ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class SeatInline(_ReadOnlyInline):
    model = Seat
    fields = readonly_fields = ("seat", "user", "bot", "accepted_at", "declined_at")


class SeatChangeInline(_ReadOnlyInline):
    """Who took over a seat and who took it back (games.bots)."""

    model = SeatChange
    fields = readonly_fields = (
        "at",
        "seat",
        "kind",
        "level",
        "why",
        "actor",
        "actor_user",
        "version",
    )


class MoveInline(_ReadOnlyInline):
    """The full log, with who acted: moderators see service and moderator moves apart."""

    model = Move
    fields = readonly_fields = (
        "number",
        "round",
        "seat",
        "action",
        "revealed",
        "automatic",
        "actor",
        "actor_user",
        "at",
    )
    ordering = ["number"]


class ModerationForm(ReasonForm):
    """What a moderator confirms an action with: why they take it."""

    reason = reason_field("Why you take this action; it is written to the log.")


@dataclass(frozen=True)
class ModeratorAction:
    """One admin action: its confirmation page's wording and the ``do_*`` call it makes."""

    title: str
    done: str
    call: Callable[..., Game]  # (game_id, moderator, *, version, reason)


MODERATOR_ACTIONS = {
    "extend_deadline_24h": ModeratorAction(
        "Extend the deadline by 24 hours",
        "Deadline extended",
        lambda game_id, moderator, **checked: actions.do_extend_deadline(
            game_id, moderator, 24, **checked
        ),
    ),
    "force_automatic_move": ModeratorAction(
        "Play the automatic move now (rules P24)",
        "Automatic move played",
        actions.do_force_automatic_move,
    ),
    "abort_games": ModeratorAction("Abort the game", "Aborted", actions.do_abort_game),
    # For a suspended or absent player: the seat to move goes to the game's stand-in bot
    # (the player keeps it, is emailed, and may take it back).
    "replace_with_bot": ModeratorAction(
        "Hand the seat to move to a stand-in bot",
        "Seat handed to a bot",
        lambda game_id, moderator, **checked: actions.do_replace_with_bot(
            game_id, moderator, None, **checked
        ),
    ),
}


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "game",
        "status",
        "host",
        "version",
        "current_seat",
        "to_move",
        "turn_started_at",
        "deadline",
        "automatic_moves",
        "created_at",
    ]
    list_filter = [
        "status",
        WaitingOnPlayerFilter,
        OverdueFilter,
        "game",
        "blind",
        "end_reason",
    ]
    search_fields = ["id", "host__email", "seats__user__email"]
    date_hierarchy = "created_at"
    readonly_fields = [
        "id",
        "game",
        "status",
        "end_reason",
        "host",
        "turn_hours",
        "blind",
        "version",
        "current_seat",
        "round",
        "deadline",
        "invitation_expires_at",
        "created_at",
        "updated_at",
        "started_at",
        "ended_at",
        "result",
        "seed_commitment",
        "published_server_seed",
    ]
    # The secret state is never shown, not even to moderators: they do not play, but they
    # might, and a screenshot of the admin must not carry the draw order.
    exclude = ["state"]
    # The moderators' actions (audit entries) beside the log.
    inlines = [SeatInline, SeatChangeInline, MoveInline, AuditEntryInline]
    actions = list(MODERATOR_ACTIONS)

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related("host")
            .annotate(
                automatic_move_count=automatic_moves_of_game(), to_move_email=player_to_move()
            )
        )

    @admin.display(description="server seed")
    def published_server_seed(self, game: Game) -> str:
        # Secret until the game has ended, for moderators too (they might play): it is the
        # whole deal. Afterwards it is public (games.fairness), so shown like the API does.
        return fairness.public_server_seed(game) or "secret until the game has ended"

    @admin.display(description="automatic moves", ordering="automatic_move_count")
    def automatic_moves(self, game: "WithAnnotations[Game, _GameListColumns]") -> int:
        return game.automatic_move_count

    @admin.display(description="waiting on", ordering="to_move_email")
    def to_move(self, game: "WithAnnotations[Game, _GameListColumns]") -> str | None:
        # None shows as the admin's empty value; a finished game keeps its last seat.
        return game.to_move_email if game.status == GameStatus.ACTIVE else None

    def has_add_permission(self, request):
        return False  # games are created by hosts, through the service

    def has_change_permission(self, request, obj=None):
        return False  # see the module docstring: change only through the actions

    def has_delete_permission(self, request, obj=None):
        return False  # abort instead: the log must survive

    def _moderate(self, request, queryset, name: str):
        """First call: a page listing the games as they are now, asking for a reason.

        Its form posts back the action, the selected games, the version of each as shown,
        and the reason; the second call then runs the action per game with that version,
        so a game that moved on in between is left alone and reported.
        """
        action = MODERATOR_ACTIONS[name]
        form = ModerationForm(request.POST if "confirm" in request.POST else None)
        if form.is_valid():
            self._run(request, queryset, action, form.cleaned_data["reason"])
            return None  # back to the list, which shows the messages
        context = {
            **self.admin_site.each_context(request),
            "title": action.title,
            "opts": self.model._meta,
            "games": queryset.order_by("created_at"),
            "action_name": name,
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
            "form": form,
        }
        return TemplateResponse(request, "admin/games/game/moderate.html", context)

    def _run(self, request, queryset, action: ModeratorAction, reason: str) -> None:
        acted = 0
        for game in queryset:
            try:
                version = int(request.POST[f"version_{game.id}"])
            except (KeyError, ValueError):
                self.message_user(
                    request, f"{game}: no version was confirmed; nothing done.", messages.WARNING
                )
                continue
            try:
                action.call(game.id, request.user, version=version, reason=reason)
                acted += 1
            except actions.ServiceError as error:
                self.message_user(request, f"{game}: {error.detail}", messages.WARNING)
        if acted:
            self.message_user(
                request, f"{action.done}: {acted} game(s). Reason: {reason}", messages.SUCCESS
            )

    @admin.action(description=MODERATOR_ACTIONS["extend_deadline_24h"].title)
    def extend_deadline_24h(self, request, queryset):
        return self._moderate(request, queryset, "extend_deadline_24h")

    @admin.action(description=MODERATOR_ACTIONS["force_automatic_move"].title)
    def force_automatic_move(self, request, queryset):
        return self._moderate(request, queryset, "force_automatic_move")

    @admin.action(description=MODERATOR_ACTIONS["replace_with_bot"].title)
    def replace_with_bot(self, request, queryset):
        return self._moderate(request, queryset, "replace_with_bot")

    @admin.action(description=MODERATOR_ACTIONS["abort_games"].title)
    def abort_games(self, request, queryset):
        return self._moderate(request, queryset, "abort_games")


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "round", "seat", "action", "automatic", "actor", "at"]
    list_filter = ["automatic", "actor"]
    search_fields = ["game__id"]
    readonly_fields = [f.name for f in Move._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
