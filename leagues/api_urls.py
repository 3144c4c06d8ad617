"""League API URLs, mounted at /api/leagues/."""

from django.urls import path

from . import api

urlpatterns = [
    path("", api.LeaguesView.as_view(), name="api-leagues"),
    path("<uuid:league_id>/", api.LeagueView.as_view(), name="api-league"),
]
