"""Tournaments in the moderators' admin: read only, as every change goes through
``tournaments.actions`` (a moderator acts on a tournament's games in the games' admin)."""

from django.contrib import admin

from .models import Entrant, Pairing, Round, Tournament


class EntrantInline(admin.TabularInline):
    model = Entrant
    fields = ("user", "invited_at", "signed_up_at", "declined_at", "withdrawn_at", "seed")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class RoundInline(admin.TabularInline):
    model = Round
    fields = ("number", "started_at", "deadline", "ended_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "organiser", "game", "format", "status", "starts_at", "current_round"]
    list_filter = ["status", "format", "game", "signup"]
    search_fields = ["name", "organiser__email", "organiser__display_name"]
    readonly_fields = [
        "name",
        "organiser",
        "game",
        "format",
        "rounds",
        "turn_hours",
        "clock",
        "rated",
        "blind",
        "signup",
        "max_entrants",
        "starts_at",
        "round_days",
        "status",
        "current_round",
        "created_at",
        "started_at",
        "ended_at",
    ]
    inlines = [EntrantInline, RoundInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = ["round", "board", "first", "second", "game", "result", "decided_by"]
    list_filter = ["result", "decided_by"]
    search_fields = ["first__user__email", "second__user__email", "round__tournament__name"]
    readonly_fields = [
        "round",
        "board",
        "first",
        "second",
        "game",
        "result",
        "decided_by",
        "advances",
    ]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
