"""The pages of lobby."""

from django.urls import URLPattern

app_name = "lobby"
urlpatterns: list[URLPattern] = []
