"""Push URLs: the API's ``/api/me/push-subscriptions/`` (mounted by piratz_site.urls)."""

from django.urls import path

from .api import MyPushSubscriptionsView, MyPushSubscriptionView

urlpatterns = [
    path("", MyPushSubscriptionsView.as_view(), name="me-push-subscriptions"),
    path("<int:subscription_id>/", MyPushSubscriptionView.as_view(), name="me-push-subscription"),
]
