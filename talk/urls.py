"""URLs of the table talk API, mounted at /api/games/<game_id>/messages/."""

from django.urls import path

from . import api

urlpatterns = [
    path("", api.MessagesView.as_view(), name="api-game-messages"),
]
