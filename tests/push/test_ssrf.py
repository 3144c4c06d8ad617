"""Server-side request forgery through push endpoints: an endpoint comes from a browser, so
its host is checked against the one table of every outbound post when subscribing, and
again at each post, which connects to the very address it checked."""

import socket

import pytest
from django.utils import timezone

from accounts.preferences import do_update_settings
from notifications.delivery import SendOutcome
from push import delivery
from push.api import PushSubscribeThrottle
from push.models import PushDelivery, PushSubscription
from tests.factories import client_for, make_user, start_game
from tests.resolver import resolving
from tests.throttles import api_rates

from .conftest import PUSH_SERVICES, Device

pytestmark = pytest.mark.django_db

URL = "/api/me/push-subscriptions/"
Status = PushDelivery.Status

# The addresses issue 32 found accepted: at subscription (the first five, and the name
# localhost), and before each post (the rest, which Python's is_global calls global).
LOOPBACK = ["127.0.0.1", "::1", "::ffff:127.0.0.1", "64:ff9b::7f00:1"]
INTERNAL = ["169.254.169.254", "10.0.0.1", "fec0::1", "64:ff9b::a9fe:a9fe", "3fff::1"]
INTERNAL += ["::7f00:1", "192.88.99.1"]
ADDRESSES = LOOPBACK + INTERNAL


def _literal(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def _subscribe(api, endpoint: str):
    device = Device()
    body = {"endpoint": endpoint, "keys": {"p256dh": device.p256dh, "auth": device.auth_b64}}
    return api.post(URL, body, format="json")


@pytest.fixture
def anna(settings):
    settings.PUSH_ALLOW_INSECURE_LOCALHOST = False
    return make_user("anna@example.com")


@pytest.mark.parametrize("address", ADDRESSES)
def test_a_name_resolving_to_an_internal_address_is_refused_at_subscription(
    anna, monkeypatch, address
):
    resolving(monkeypatch, {"push.attacker.example": address})
    answer = _subscribe(client_for(anna), "https://push.attacker.example/send/x")
    assert answer.status_code == 400, answer.json()
    assert answer.json()["code"] == "invalid"
    assert answer.json()["detail"] == (
        f"The host push.attacker.example resolves to an address that is not public ({address})."
    )
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("host", [*(_literal(address) for address in ADDRESSES), "localhost"])
def test_an_internal_address_in_the_endpoint_is_refused_at_subscription(anna, host):
    answer = _subscribe(client_for(anna), f"https://{host}/send/x")
    assert answer.status_code == 400, answer.json()
    assert "not public" in answer.json()["detail"]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("address", INTERNAL)
def test_the_local_allowance_lets_loopback_through_and_nothing_else(
    anna, settings, monkeypatch, address
):
    settings.PUSH_ALLOW_INSECURE_LOCALHOST = True
    resolving(monkeypatch, {"push.attacker.example": address, "push.local.example": "::1"})
    api = client_for(anna)
    assert _subscribe(api, "https://push.attacker.example/send/x").status_code == 400
    assert _subscribe(api, "https://push.local.example/send/x").status_code == 201


def test_a_name_that_does_not_resolve_is_refused_at_subscription(anna, monkeypatch):
    def getaddrinfo(host, *args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    answer = _subscribe(client_for(anna), "https://push.nowhere.example/send/x")
    assert answer.status_code == 400
    assert "push.nowhere.example could not be resolved" in answer.json()["detail"]
    assert not PushSubscription.objects.exists()


@api_rates(push_subscriptions="2/hour")  # API_THROTTLE_PUSH_SUBSCRIPTIONS
def test_subscribing_is_throttled_per_user_refused_tries_included(anna):
    """Each try resolves a host the caller chose: the service is nobody's DNS prober."""
    api = client_for(anna)
    for _ in range(2):
        assert _subscribe(api, "https://10.0.0.1/send/x").status_code == 400
    answer = _subscribe(api, "https://push.example.net/send/x")
    assert (answer.status_code, answer.json()["code"]) == (429, "throttled")
    assert api.get(URL).status_code == 200  # reading is free
    bert = client_for(make_user("bert@example.com"))
    assert _subscribe(bert, "https://push.example.net/send/x").status_code == 201


def test_the_subscription_budget_is_a_setting_of_its_own():
    assert PushSubscribeThrottle().rate == "30/hour"  # API_THROTTLE_PUSH_SUBSCRIPTIONS


@pytest.fixture
def connections(monkeypatch):
    """Every connection the service opens, refused: a post must not get that far."""
    opened = []

    def create_connection(address, *args, **kwargs):
        opened.append(address)
        raise ConnectionRefusedError("the test allows no connection")

    monkeypatch.setattr(socket, "create_connection", create_connection)
    return opened


def _queue_news(user) -> PushDelivery:
    do_update_settings(user, {"channels": {"game_started": "push"}}, now=timezone.now())
    start_game([user, make_user("bert@example.com")])  # no on-commit run: sent by hand below
    return PushDelivery.objects.get(user=user)


# An endpoint stored before subscriptions were checked may hold an address itself; an IPv6
# one never gets as far as the post (the VAPID token's audience cannot be an IPv6 literal).
STORED = [("stored literal", address) for address in ADDRESSES if ":" not in address]


@pytest.mark.parametrize(
    ("form", "address"), [*(("moved name", address) for address in ADDRESSES), *STORED]
)
def test_an_internal_address_is_refused_before_each_post(
    anna, vapid, settings, monkeypatch, connections, form, address
):
    """A name may point elsewhere once subscribed, a row stored before the check existed
    may hold an address: either way the post is refused for good, before connecting."""
    settings.PUSH_ALLOW_INSECURE_LOCALHOST = False  # the vapid fixture turns it on
    if form == "moved name":
        Device().subscribe(anna, "https://push.example.net/send/x")
        resolving(monkeypatch, {"push.example.net": address})
    else:
        device = Device()
        PushSubscription.objects.create(
            user=anna,
            endpoint=f"https://{_literal(address)}/send/x",
            p256dh=device.p256dh,
            auth=device.auth_b64,
        )
    row = _queue_news(anna)

    assert delivery.send_pending_delivery(row.pk) == SendOutcome.FAILED

    row.refresh_from_db()
    assert row.status == Status.FAILED and row.attempts == 1
    assert "resolves to an address that is not public" in row.last_error
    assert connections == []
    assert PushSubscription.objects.filter(user=anna).exists()  # refused, not gone


def test_the_post_goes_to_the_checked_address_with_the_host_named(
    anna, vapid, settings, push_service, monkeypatch
):
    """Connecting to the address that was checked, not to a second lookup (DNS rebinding):
    the resolver is asked once per post, and the Host header still names the host."""
    settings.PUSH_ALLOW_INSECURE_LOCALHOST = True  # our push service is on 127.0.0.1
    port = push_service.server.server_address[1]
    Device().subscribe(anna, f"http://localhost:{port}/device")
    row = _queue_news(anna)
    calls = []

    def getaddrinfo(host, port, *args, **kwargs):
        # The first answer is our push service; a second lookup of the name would be
        # answered with the metadata address, where the post must never go. (Connecting
        # to an address passes it through getaddrinfo too: that is no lookup.)
        if host != "127.0.0.1":
            calls.append(host)
        address = "127.0.0.1" if calls.count(host) <= 1 else "169.254.169.254"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)

    assert delivery.send_pending_delivery(row.pk) == SendOutcome.SENT

    assert calls == ["localhost"]
    [pushed] = push_service.posts
    assert pushed.path == "/device"
    assert pushed.headers["host"] == f"localhost:{port}"
    assert pushed.headers["content-type"] == "application/octet-stream"
    assert pushed.headers["user-agent"] == "Piratz-Push/1"


def test_the_push_services_of_the_tests_resolve_to_a_public_address():
    """The names the other push tests subscribe at pass the check: it is the address that
    is refused above, not every name."""
    for host in PUSH_SERVICES:
        assert socket.getaddrinfo(host, 443)[0][4][0] == PUSH_SERVICES[host]
