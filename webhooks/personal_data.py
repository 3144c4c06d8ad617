"""A person's webhooks in their data export (``webhooks.json``) and their erasure.

Registered in ``WebhooksConfig.ready`` (``accounts.personal_data``, ``accounts.erasure``).
"""

from datetime import datetime

from accounts.models import User
from webhooks.models import Webhook


def export_webhooks(user: User) -> list[dict]:
    """The webhooks ``user`` owns, their URLs masked as everywhere they are shown (the
    owner has the full URL; the path of a chat service's URL is a credential)."""
    return [
        {
            "id": str(hook.pk),
            "game": str(hook.game_id),
            "kind": hook.kind,
            "url": hook.masked_url,
            "created_at": hook.created_at,
            "disabled_at": hook.disabled_at,
            "disabled_reason": hook.disabled_reason,
        }
        for hook in Webhook.objects.filter(owner=user)
    ]


def erase_webhooks(user: User, now: datetime) -> None:
    """Delete every webhook ``user`` owns (with its deliveries): nothing posts for them."""
    for hook in Webhook.objects.filter(owner=user):
        hook.delete()  # one by one: the delete signals keep Game.has_webhooks
