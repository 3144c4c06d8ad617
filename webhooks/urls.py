"""URLs of the webhooks API, mounted under /api/games/<game_id>/webhooks/."""

from django.urls import path

from . import api

urlpatterns = [
    path("", api.webhooks, name="api-game-webhooks"),
    path("<uuid:webhook_id>/", api.webhook_detail, name="api-game-webhook"),
]
