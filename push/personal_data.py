"""A person's push subscriptions in their data export and their erasure.

Registered in ``PushConfig.ready`` (``accounts.personal_data``, ``accounts.erasure``).
"""

from datetime import datetime

from accounts.models import User

from .models import PushDelivery, PushSubscription


def export_push(user: User) -> list[dict]:
    """The devices ``user`` subscribed, each by its push service's origin (the rest of the
    endpoint names the device at that service) and dates."""
    return [
        {
            "id": sub.pk,
            "push_service": sub.origin,
            "created_at": sub.created_at,
            "last_used_at": sub.last_used_at,
        }
        for sub in PushSubscription.objects.filter(user=user)
    ]


def erase_push(user: User, now: datetime) -> None:
    """Delete every subscription and push message of ``user``: nothing is sent to them."""
    PushDelivery.objects.filter(user=user).delete()
    PushSubscription.objects.filter(user=user).delete()
