"""The REST API of people, mounted at /api/people/."""

from django.urls import path

from . import api

urlpatterns = [
    path("following/", api.FollowingView.as_view(), name="api-following"),
    path("following/<str:public_id>/", api.FollowingOneView.as_view(), name="api-following-one"),
    path("blocks/", api.BlocksView.as_view(), name="api-blocks"),
    path("blocks/<str:public_id>/", api.BlockOneView.as_view(), name="api-block"),
    path("followed-games/", api.FollowedGamesView.as_view(), name="api-followed-games"),
    path(
        "followed-games/<uuid:game_id>/",
        api.FollowedGameOneView.as_view(),
        name="api-followed-game",
    ),
]
