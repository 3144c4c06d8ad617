"""Tournament pages, mounted at /tournaments/."""

from django.urls import path

from . import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.create_tournament, name="new"),
    path("invitation/<str:token>/", views.invitation, name="invitation"),
    path("<uuid:tournament_id>/", views.tournament_page, name="tournament"),
    path("<uuid:tournament_id>/sign-up/", views.sign_up, name="sign-up"),
    path("<uuid:tournament_id>/withdraw/", views.withdraw, name="withdraw"),
]
