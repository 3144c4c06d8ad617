"""URLs of the table page's talk forms, mounted at /games/<game_id>/talk/ (talk/urls.py is
the API's, under /api/)."""

from django.urls import path

from . import views

app_name = "talk"

urlpatterns = [
    path("", views.post_message, name="post"),
    path("<int:message_id>/report/", views.report_message, name="report"),
]
