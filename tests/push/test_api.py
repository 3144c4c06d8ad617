"""``/api/me/push-subscriptions/``, the settings' ``channels``, and the app shell's files."""

import json

import pytest
from django.core.management import call_command

from accounts.models import NotificationSettings
from push.endpoints import b64url_decode
from push.models import PushSubscription
from tests.factories import client_for, make_user, sign_in_verified

from .conftest import Device

pytestmark = pytest.mark.django_db
URL = "/api/me/push-subscriptions/"


def _body(device: Device, endpoint="https://push.example.net/send/abc") -> dict:
    return {
        "endpoint": endpoint,
        "expirationTime": None,
        "keys": {"p256dh": device.p256dh, "auth": device.auth_b64},
    }


def test_subscribe_list_renew_and_remove():
    anna = make_user("anna@example.com")
    api = client_for(anna)
    device = Device()
    created = api.post(URL, _body(device), format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["push_service"] == "https://push.example.net"
    assert "endpoint" not in created.json()  # the device's address stays with us
    again = api.post(URL, _body(Device()), format="json")  # the browser renewed its keys
    assert again.status_code == 200 and again.json()["id"] == created.json()["id"]
    assert api.get(URL).json() == [again.json()]
    assert api.delete(f"{URL}{created.json()['id']}/").status_code == 204
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"endpoint": "http://push.example.net/x"}, "https://"),
        ({"endpoint": "https://user:pw@push.example.net/x"}, "user name or password"),
        ({"endpoint": "https://push.example.net/a b"}, "spaces"),
        ({"keys": {"p256dh": "AAAA", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, "P-256"),
        ({"keys": {"p256dh": None, "auth": "x"}}, None),
        ({"color": "red"}, "Unknown"),
    ],
)
def test_refusals_are_sentences(change, words):
    api = client_for(make_user("anna@example.com"))
    body = {**_body(Device()), **change}
    answer = api.post(URL, body, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"
    if words:
        assert words in json.dumps(answer.json())
    assert not PushSubscription.objects.exists()


def test_a_bad_auth_secret_is_refused_in_german():
    anna = make_user("anna@example.com", language="de")
    device = Device()
    body = {**_body(device), "keys": {"p256dh": device.p256dh, "auth": "AAAA"}}
    answer = client_for(anna).post(URL, body, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert answer.status_code == 400
    assert "16-Byte" in answer.json()["detail"]


def test_only_your_own_and_not_too_many(settings):
    settings.PUSH_SUBSCRIPTIONS_PER_USER = 1
    anna, bert = make_user("anna@example.com"), make_user("bert@example.com")
    sub = Device().subscribe(anna, "https://push.example.net/a")
    assert client_for(bert).delete(f"{URL}{sub.pk}/").status_code == 404
    second = client_for(anna).post(
        URL, _body(Device(), "https://push.example.net/b"), format="json"
    )
    assert (second.status_code, second.json()["code"]) == (409, "conflict")
    assert "1 devices" in second.json()["detail"]
    assert client_for(None).get(URL).status_code in (401, 403)


def test_channels_in_the_settings_api():
    anna = make_user("anna@example.com")
    api = client_for(anna)
    channels = api.get("/api/me/settings/").json()["channels"]
    assert channels == dict.fromkeys(
        ("your_turn", "reminder", "auto_moved", "game_started", "game_over", "game_ended"), "email"
    )
    answer = api.patch("/api/me/settings/", {"channels": {"your_turn": "push"}}, format="json")
    assert answer.status_code == 200 and answer.json()["channels"]["your_turn"] == "push"
    api.patch("/api/me/settings/", {"channels": {"game_over": "both"}}, format="json")
    saved = NotificationSettings.objects.get(user=anna)
    assert saved.channels == {"game_over": "both", "your_turn": "push"}  # merged
    for bad in ({"digest": "push"}, {"your_turn": "pigeon"}, ["push"]):
        refused = api.patch("/api/me/settings/", {"channels": bad}, format="json")
        assert refused.status_code == 400 and refused.json()["code"] == "invalid"


def test_channels_on_the_settings_page(client):
    anna = make_user("anna@example.com")
    sign_in_verified(client, anna)
    page = client.get("/settings/").content.decode()
    assert 'name="channel_your_turn"' in page and "data-push-subscribe" in page
    form = {
        "form": "settings",
        "mode": "each_turn",
        "digest_hour": "8",
        "reminder_leads": "",
        "time_zone": "UTC",
        "channel_your_turn": "both",
        "channel_reminder": "push",
    }
    assert client.post("/settings/", form).status_code == 302
    saved = NotificationSettings.objects.get(user=anna)
    assert saved.channels == {"reminder": "push", "your_turn": "both"}


def test_the_manifest_the_worker_and_the_offline_page(client):
    manifest = client.get("/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    data = manifest.json()
    assert data["display"] == "standalone" and data["start_url"] == "/games/"
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert sizes == {"any", "192x192", "512x512"}
    for icon in data["icons"]:
        assert client.get(icon["src"]).status_code == 200
    assert client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="de").json()["name"] == (
        "Piratz per E-Mail"
    )

    worker = client.get("/sw.js")
    assert worker["Content-Type"].startswith("text/javascript")
    assert worker["Service-Worker-Allowed"] == "/"
    body = worker.content.decode()
    assert '"/offline/"' in body and "showNotification" in body
    assert "worker-src 'self'" in worker["Content-Security-Policy"]

    offline = client.get("/offline/")
    assert offline.status_code == 200 and b"offline" in offline.content
    home = client.get("/").content.decode()
    assert 'rel="manifest"' in home and "sw_register.js" in home


def test_make_vapid_keys_prints_a_usable_pair(capsys):
    call_command("make_vapid_keys", "--subject", "mailto:ops@example.org")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    assert len(b64url_decode(lines["VAPID_PUBLIC_KEY"])) == 65
    assert len(b64url_decode(lines["VAPID_PRIVATE_KEY"])) == 32
    assert lines["VAPID_SUBJECT"] == "mailto:ops@example.org"
