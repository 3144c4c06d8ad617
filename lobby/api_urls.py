"""The REST API of lobby, mounted at /api/lobby/."""

from django.urls import path

from . import api

urlpatterns = [
    path("", api.LobbyView.as_view(), name="api-lobby"),
    path("<uuid:game_id>/", api.OpenGameView.as_view(), name="api-open-game"),
    path("<uuid:game_id>/join/", api.JoinView.as_view(), name="api-open-game-join"),
    path("<uuid:game_id>/withdraw/", api.WithdrawView.as_view(), name="api-open-game-withdraw"),
]
