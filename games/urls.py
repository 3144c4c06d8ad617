"""Player-facing pages of the games app."""

from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("invitations/<str:token>/", views.invitation, name="invitation"),
]
