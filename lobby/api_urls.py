"""The REST API of lobby."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
