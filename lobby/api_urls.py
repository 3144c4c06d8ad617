"""The REST API of lobby, mounted at /api/lobby/."""

from django.urls import path

from . import api, substitutes_api

urlpatterns = [
    path("", api.LobbyView.as_view(), name="api-lobby"),
    path("<uuid:game_id>/", api.OpenGameView.as_view(), name="api-open-game"),
    path("<uuid:game_id>/join/", api.JoinView.as_view(), name="api-open-game-join"),
    path("<uuid:game_id>/leave/", api.LeaveView.as_view(), name="api-open-game-leave"),
    path("<uuid:game_id>/withdraw/", api.WithdrawView.as_view(), name="api-open-game-withdraw"),
    # Running games' seats offered to substitutes (lobby/substitutes_api.py).
    path("substitutes/", substitutes_api.SubstitutesView.as_view(), name="api-lobby-substitutes"),
    path(
        "substitutes/<int:offer_id>/take/",
        substitutes_api.TakeSubstituteView.as_view(),
        name="api-lobby-substitute-take",
    ),
]
