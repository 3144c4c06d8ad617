"""The pages of tournaments."""

from django.urls import URLPattern

app_name = "tournaments"
urlpatterns: list[URLPattern] = []
