"""The accounts app's REST endpoints, mounted at /api/auth/."""

from django.urls import path

from .api import LoginLinkView

app_name = "accounts_api"

urlpatterns = [
    path("login-link/", LoginLinkView.as_view(), name="login-link"),
]
