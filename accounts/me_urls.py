"""The caller's own settings in the REST API, mounted at /api/me/."""

from django.urls import path

from .api import MyApiKeysView, MyApiKeyView, MySettingsView, MyVacationsView, MyVacationView
from .personal_data_api import MyDeletionView, MyExportView

urlpatterns = [
    path("settings/", MySettingsView.as_view(), name="me-settings"),
    path("vacations/", MyVacationsView.as_view(), name="me-vacations"),
    path("vacations/<int:vacation_id>/", MyVacationView.as_view(), name="me-vacation"),
    path("api-keys/", MyApiKeysView.as_view(), name="me-api-keys"),
    path("api-keys/<int:key_id>/", MyApiKeyView.as_view(), name="me-api-key"),
    path("export/", MyExportView.as_view(), name="me-export"),
    path("delete/", MyDeletionView.as_view(), name="me-delete"),
]
