"""The settings page lists the browsers subscribed to push (origin, since, last used; never
the endpoint's path nor keys) and removes one with a plain form; English and German."""

from datetime import UTC, datetime

import pytest
from django.test import Client

from push.models import PushSubscription

from .conftest import Device

pytestmark = pytest.mark.django_db

ENDPOINT = "https://push.example.net/send/secret-device-path"


def signed_in(user, language: str = "en") -> Client:
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    return client


def test_the_settings_page_lists_the_subscribed_browsers_without_their_endpoints(anna, bert):
    device = Device()
    mine = device.subscribe(anna, ENDPOINT)
    PushSubscription.objects.filter(pk=mine.pk).update(
        created_at=datetime(2026, 3, 1, 9, 0, tzinfo=UTC),
        last_used_at=datetime(2026, 3, 2, 9, 0, tzinfo=UTC),
    )
    Device().subscribe(bert, "https://push.example.org/bert")
    body = signed_in(anna).get("/settings/").content.decode()
    assert f'data-push-device="{mine.pk}"' in body
    assert "Via https://push.example.net, since " in body and "; last message " in body
    assert f'action="/settings/push/{mine.pk}/remove/"' in body
    assert "secret-device-path" not in body and device.p256dh not in body
    assert "push.example.org" not in body  # Bert's


def test_the_settings_page_says_so_in_german_when_no_device_is_subscribed(anna):
    body = signed_in(anna, "de").get("/settings/").content.decode()
    assert "Kein Gerät bekommt Push-Nachrichten." in body


def test_the_remove_button_stops_push_on_that_device(anna):
    mine = Device().subscribe(anna, ENDPOINT)
    client = signed_in(anna)
    response = client.post(f"/settings/push/{mine.pk}/remove/")
    assert response.status_code == 302 and response["Location"] == "/settings/#push"
    assert not PushSubscription.objects.filter(pk=mine.pk).exists()
    body = client.get("/settings/").content.decode()
    assert "That device gets no more push messages." in body
    assert "No device gets push messages." in body


def test_another_persons_device_is_not_removed(anna, bert):
    theirs = Device().subscribe(bert, ENDPOINT)
    client = signed_in(anna, "de")
    response = client.post(f"/settings/push/{theirs.pk}/remove/")
    assert response.status_code == 302
    assert PushSubscription.objects.filter(pk=theirs.pk).exists()
    body = client.get("/settings/").content.decode()
    assert "Du hast kein Push-Abonnement mit dieser ID." in body


def test_removing_wants_a_post_by_someone_signed_in(anna):
    mine = Device().subscribe(anna, ENDPOINT)
    assert signed_in(anna).get(f"/settings/push/{mine.pk}/remove/").status_code == 405
    assert Client().post(f"/settings/push/{mine.pk}/remove/").status_code == 302
    assert PushSubscription.objects.filter(pk=mine.pk).exists()
