"""URLs of the ratings API, mounted at /api/."""

from django.urls import path

from . import api

urlpatterns = [
    path("ratings/<str:game>/", api.LeaderboardView.as_view(), name="api-ratings"),
    path("players/<path:name>/ratings/", api.player_ratings, name="api-player-ratings"),
]
