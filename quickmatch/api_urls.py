"""Quick match API URLs, mounted at /api/quickmatch/."""

from django.urls import path

from . import api

urlpatterns = [
    path("", api.SeeksView.as_view(), name="api-quickmatch"),
    path("<uuid:seek_id>/", api.SeekView.as_view(), name="api-seek"),
]
