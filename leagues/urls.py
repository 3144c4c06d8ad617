"""League pages, mounted at /leagues/."""

from django.urls import path

from . import views

app_name = "leagues"

urlpatterns = [
    path("", views.my_leagues, name="mine"),
    path("new/", views.create_league, name="new"),
    path("invitation/<str:token>/", views.invitation, name="invitation"),
    path("<uuid:league_id>/", views.league_page, name="league"),
    path("<uuid:league_id>/leave/", views.leave, name="leave"),
    path("<uuid:league_id>/weekly-standings/", views.weekly_standings, name="weekly-standings"),
]
