"""Player-facing pages of the games app."""

from django.urls import path

from games import lobby_views, views
from games.fairness_views import verification_page

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("invitations/<str:token>/", views.invitation, name="invitation"),
    path("games/", lobby_views.my_games, name="my-games"),
    path("games/<uuid:game_id>/replay/", lobby_views.replay, name="replay"),
    path("games/<uuid:game_id>/verification/", verification_page, name="verification"),
    path("games/<uuid:game_id>/", views.game_page, name="game"),
    path("games/<uuid:game_id>/move/", views.play_move, name="move"),
    path("games/<uuid:game_id>/take-back/", views.take_back_seat, name="take-back"),
    path("games/<uuid:game_id>/version/", views.game_version, name="version"),
    path("games/<uuid:game_id>/enter/<str:token>/", views.game_entry, name="enter"),
]
