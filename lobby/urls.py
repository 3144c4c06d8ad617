"""The pages of lobby, mounted at /lobby/."""

from django.urls import path

from . import views

app_name = "lobby"

urlpatterns = [
    path("", views.lobby_page, name="lobby"),
    path("new/", views.create_open_game, name="new"),
    path("<uuid:game_id>/join/", views.join, name="join"),
    path("<uuid:game_id>/leave/", views.leave, name="leave"),
    path("<uuid:game_id>/withdraw/", views.withdraw, name="withdraw"),
    # A running game's seat its host offers to a substitute (lobby/substitutes.py).
    path("substitutes/<int:offer_id>/take/", views.take_substitute_seat, name="take-substitute"),
]
