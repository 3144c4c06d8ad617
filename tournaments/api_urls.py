"""The REST API of tournaments."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
