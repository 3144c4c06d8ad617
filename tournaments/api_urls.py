"""Tournament API URLs, mounted at /api/tournaments/."""

from django.urls import path

from . import api

urlpatterns = [
    path("", api.TournamentsView.as_view(), name="api-tournaments"),
    path("<uuid:tournament_id>/", api.TournamentView.as_view(), name="api-tournament"),
    path("<uuid:tournament_id>/sign-up/", api.SignUpView.as_view(), name="api-tournament-sign-up"),
    path(
        "<uuid:tournament_id>/withdraw/", api.WithdrawView.as_view(), name="api-tournament-withdraw"
    ),
]
