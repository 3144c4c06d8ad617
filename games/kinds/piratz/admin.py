"""Piratz's admin pages: the burials, read-only like the move log they belong to."""

from django.contrib import admin

from games.admin import MoveAdmin
from games.kinds.piratz.models import BuriedCard


@admin.register(BuriedCard)
class BuriedCardAdmin(MoveAdmin):
    list_display = ["game", "round", "seat", "card"]
    list_filter = []
    readonly_fields = [f.name for f in BuriedCard._meta.fields]
