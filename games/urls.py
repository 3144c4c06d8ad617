"""Player-facing pages of the games app."""

from django.urls import path

from games import lobby_views, player_views, rules_views, together_views, views
from games.fairness_views import verification_page

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("invitations/<str:token>/", views.invitation, name="invitation"),
    path("games/", lobby_views.my_games, name="my-games"),
    # Public: the rules as players read them; each rule id is an anchor (#P12, #R20).
    path("rules/<str:kind>/", rules_views.rules_page, name="rules"),
    path("games/<uuid:game_id>/replay/", lobby_views.replay, name="replay"),
    path("games/<uuid:game_id>/verification/", verification_page, name="verification"),
    path("games/<uuid:game_id>/", views.game_page, name="game"),
    path("games/<uuid:game_id>/move/", views.play_move, name="move"),
    path("games/<uuid:game_id>/take-back/", views.take_back_seat, name="take-back"),
    path("games/<uuid:game_id>/version/", views.game_version, name="version"),
    path("games/<uuid:game_id>/enter/<str:token>/", views.game_entry, name="enter"),
    # Playing together (games/together_views.py): the table's forms post here.
    path("games/<uuid:game_id>/resign/", together_views.resign, name="resign"),
    path("games/<uuid:game_id>/pause/", together_views.pause, name="pause"),
    path("games/<uuid:game_id>/resume/", together_views.resume, name="resume"),
    path("games/<uuid:game_id>/extend/", together_views.extend, name="extend"),
    path("games/<uuid:game_id>/hand-to-bot/", together_views.hand_to_bot, name="hand-to-bot"),
    path("games/<uuid:game_id>/rematch/", together_views.rematch, name="rematch"),
    # A person's record, at the address that is theirs for good (User.public_id); and the
    # old address by the name others see (which may hold a "/"), which leads there.
    path("people/<str:public_id>/", player_views.player_page, name="player"),
    path("players/<path:name>/", player_views.player_by_name, name="player-by-name"),
]
