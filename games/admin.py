"""The moderators' view of games: find them, read their log, and act through games.actions."""

from django.contrib import admin, messages

from games import actions
from games.models import BuriedCard, Game, Move, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = ["seat", "user", "accepted_at", "declined_at"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


class MoveInline(admin.TabularInline):
    """The full log, with who acted: moderators see service and moderator moves apart."""

    model = Move
    extra = 0
    can_delete = False
    fields = [
        "number",
        "round",
        "seat",
        "action",
        "revealed",
        "automatic",
        "actor",
        "actor_user",
        "at",
    ]
    readonly_fields = fields
    ordering = ["number"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "game",
        "status",
        "host",
        "version",
        "current_seat",
        "deadline",
        "created_at",
    ]
    list_filter = ["status", "game", "blind", "end_reason"]
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
    ]
    # The secret state is never shown, not even to moderators: they do not play, but they
    # might, and a screenshot of the admin must not carry the draw order.
    exclude = ["state"]
    inlines = [SeatInline, MoveInline]
    actions = ["extend_deadline_24h", "force_automatic_move", "abort_games"]

    def has_add_permission(self, request):
        return False  # games are created by hosts, through the service

    def has_delete_permission(self, request, obj=None):
        return False  # abort instead: the log must survive

    def _act(self, request, queryset, call, done: str):
        acted = 0
        for game in queryset:
            try:
                call(game)
                acted += 1
            except actions.GameError as error:
                self.message_user(request, f"{game}: {error.detail}", messages.WARNING)
        if acted:
            self.message_user(request, f"{done}: {acted} game(s).", messages.SUCCESS)

    @admin.action(description="Extend the deadline by 24 hours")
    def extend_deadline_24h(self, request, queryset):
        self._act(
            request,
            queryset,
            lambda game: actions.do_extend_deadline(game.id, request.user, 24),
            "Deadline extended",
        )

    @admin.action(description="Play the automatic move now (rules P24)")
    def force_automatic_move(self, request, queryset):
        self._act(
            request,
            queryset,
            lambda game: actions.do_play_timeout(game.id, moderator=request.user),
            "Automatic move played",
        )

    @admin.action(description="Abort the game")
    def abort_games(self, request, queryset):
        self._act(
            request,
            queryset,
            lambda game: actions.do_abort_game(game.id, request.user),
            "Aborted",
        )


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


@admin.register(BuriedCard)
class BuriedCardAdmin(MoveAdmin):
    list_display = ["game", "round", "seat", "card"]
    list_filter = []
    readonly_fields = [f.name for f in BuriedCard._meta.fields]
