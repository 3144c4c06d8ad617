"""The only writers of push subscriptions: subscribe a browser, remove one."""

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import ServiceError

from . import endpoints
from .models import PushSubscription


def do_subscribe(
    user: User, endpoint: str, p256dh: str, auth: str
) -> tuple[PushSubscription, bool]:
    """Keep ``user``'s browser subscription; (row, created). The same endpoint again
    updates its keys (a browser renews them) and moves it to ``user`` if another account
    had it (one browser, one person: whoever subscribed it last). ``ServiceError
    ("invalid")``, nothing stored, for an endpoint or keys the service would not use (a
    host that does not resolve, or resolves to an address of the one table of networks
    no outbound post may reach: ``push.endpoints``); ``ServiceError("conflict")`` for a
    person with ``PUSH_SUBSCRIPTIONS_PER_USER`` devices already."""
    problem = (
        endpoints.endpoint_problem(endpoint)
        or endpoints.keys_problem(p256dh, auth)
        # Last, and outside the transaction: a slow DNS answer must hold no row's lock.
        or endpoints.destination_problem(endpoint)
    )
    if problem:
        raise ServiceError("invalid", problem)
    with transaction.atomic():
        User.objects.select_for_update().only("id").get(pk=user.pk)  # one change at a time
        existing = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if existing is None:
            if (
                PushSubscription.objects.filter(user=user).count()
                >= settings.PUSH_SUBSCRIPTIONS_PER_USER
            ):
                raise ServiceError(
                    "conflict",
                    _("You have %(count)d devices subscribed already: remove one first.")
                    % {"count": settings.PUSH_SUBSCRIPTIONS_PER_USER},
                )
            return PushSubscription.objects.create(
                user=user, endpoint=endpoint, p256dh=p256dh, auth=auth
            ), True
        existing.user, existing.p256dh, existing.auth = user, p256dh, auth
        existing.save(update_fields=["user", "p256dh", "auth"])
        return existing, False


def do_unsubscribe(user: User, subscription_id: int) -> None:
    """Remove one of ``user``'s subscriptions; ``ServiceError("not_found")`` for another's
    or none (the same answer: ids reveal nothing)."""
    deleted, _counts = PushSubscription.objects.filter(user=user, pk=subscription_id).delete()
    if not deleted:
        raise ServiceError("not_found", _("You have no push subscription with this id."))
