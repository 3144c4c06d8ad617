"""The pages of lobby, mounted at /lobby/."""

from django.urls import path

from . import views

app_name = "lobby"

urlpatterns = [
    path("", views.lobby_page, name="lobby"),
    path("new/", views.create_open_game, name="new"),
    path("<uuid:game_id>/join/", views.join, name="join"),
    path("<uuid:game_id>/withdraw/", views.withdraw, name="withdraw"),
]
