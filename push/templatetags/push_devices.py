"""``{% push_devices %}``: the browsers the signed-in person gets push messages on, each
with a button that removes it, for the settings page (templates/accounts/settings.html).
Here, not in accounts: accounts may not import push (docs/architecture.md "The floors")."""

from django import template

from ..models import PushSubscription

register = template.Library()


@register.inclusion_tag("push/_devices.html", takes_context=True)
def push_devices(context) -> dict:
    """The reader's subscriptions: push service origin, created, last used; never the
    endpoint's path or keys (they name the device at the push service)."""
    request = context["request"]
    devices = [
        {"id": row.id, "origin": row.origin, "created_at": row.created_at, "used": row.last_used_at}
        for row in PushSubscription.objects.filter(user=request.user)
    ]
    # The inclusion tag's template has its own context: the forms need the CSRF token.
    return {"devices": devices, "csrf_token": context.get("csrf_token"), "zone": context["zone"]}
