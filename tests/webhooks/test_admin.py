"""Moderators see webhooks in the admin: masked URL, why one was disabled, its deliveries."""

import pytest
from django.utils import timezone

from tests.factories import toy_move
from webhooks.models import Webhook

from .conftest import add_webhook, play

pytestmark = pytest.mark.django_db


def test_moderators_see_the_reason_but_not_the_channel_token(
    toy_game, anna, receiver, moderator_client
):
    url = receiver.url("/api/webhooks/1/TOKEN42")
    webhook, _secret = add_webhook(toy_game, anna, "discord", url)
    play(toy_game, toy_move(toy_game))
    Webhook.objects.filter(id=webhook.id).update(
        disabled_at=timezone.now(), disabled_reason="Disabled after 3 failed deliveries: HTTP 404"
    )

    listing = moderator_client.get("/admin/webhooks/webhook/")
    page = moderator_client.get(f"/admin/webhooks/webhook/{webhook.id}/change/")
    deliveries = moderator_client.get("/admin/webhooks/webhookdelivery/")

    for answer in (listing, page, deliveries):
        assert answer.status_code == 200
        assert "TOKEN42" not in answer.content.decode()
    assert f"http://127.0.0.1:{receiver.port}/…" in listing.content.decode()
    assert "Disabled after 3 failed deliveries: HTTP 404" in page.content.decode()
    assert "move_applied" in page.content.decode()  # the delivery inline
