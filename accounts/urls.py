"""The accounts pages, mounted at /accounts/."""

from django.urls import path

from . import erasure_views, views

app_name = "accounts"

urlpatterns = [
    path("login/", views.login_page, name="login"),
    path("login/game-session/", views.game_session_login_link, name="game-session-login"),
    path("login/<str:token>/", views.login_link, name="login-link"),
    path("logout/", views.logout_page, name="logout"),
    path("delete/<str:token>/", erasure_views.erasure_link, name="erasure-link"),
]
