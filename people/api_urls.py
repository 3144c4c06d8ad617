"""The REST API of people."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
