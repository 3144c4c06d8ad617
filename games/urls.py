"""Player-facing pages of the games app."""

from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("invitations/<str:token>/", views.invitation, name="invitation"),
    path("games/<uuid:game_id>/", views.game_page, name="game"),
    path("games/<uuid:game_id>/enter/<str:token>/", views.game_entry, name="enter"),
]
