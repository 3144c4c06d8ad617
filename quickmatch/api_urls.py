"""The REST API of quickmatch."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
