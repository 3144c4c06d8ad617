"""Quick match pages, mounted at /quickmatch/."""

from django.urls import path

from . import views

app_name = "quickmatch"

urlpatterns = [
    path("", views.quickmatch_page, name="page"),
    path("<uuid:seek_id>/withdraw/", views.withdraw, name="withdraw"),
]
