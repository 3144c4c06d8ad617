"""The pages of people."""

from django.urls import URLPattern

app_name = "people"
urlpatterns: list[URLPattern] = []
