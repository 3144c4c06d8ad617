"""The pages of quickmatch."""

from django.urls import URLPattern

app_name = "quickmatch"
urlpatterns: list[URLPattern] = []
