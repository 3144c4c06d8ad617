"""URLs of the leaderboard pages, mounted at /leaderboard/."""

from django.urls import path

from . import views

app_name = "ratings"

urlpatterns = [
    path("", views.first_leaderboard, name="index"),
    path("<str:kind>/", views.leaderboard_page, name="leaderboard"),
]
