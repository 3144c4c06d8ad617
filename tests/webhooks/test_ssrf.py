"""Server-side request forgery: refused URLs and addresses, at creation and at delivery."""

import socket

import pytest

from core.errors import ServiceError
from core.outbound.transport import UnsafeUrl
from tests.resolver import resolving
from webhooks import delivery
from webhooks.models import WEBHOOK_POSTS, Webhook, WebhookDelivery

from .conftest import add_webhook, play_some

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "url",
    [
        "https://10.1.2.3/hook",
        "https://192.168.0.1/hook",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::ffff:10.0.0.1]/hook",
        "https://[fe80::1]/hook",
        "https://0.0.0.0/hook",
        "https://224.0.0.1/hook",
        "https://100.64.0.1/hook",  # carrier-grade NAT
        "https://[fec0::1]/hook",  # site-local: Python's is_global calls it global
        "https://[2002:a00:1::1]/hook",  # 6to4 of 10.0.0.1
        "https://[64:ff9b::a9fe:a9fe]/hook",  # NAT64 of 169.254.169.254
        "https://[2001:0:5db8:d70e::f5ff:fffe]/hook",  # Teredo to client 10.0.0.1
        "https://[3fff::1]/hook",  # documentation
        "https://metadata.internal.test/hook",  # resolves to 169.254.169.254, below
        "https://intranet.test/hook",  # resolves to 10.0.0.7, below
    ],
)
def test_private_and_link_local_addresses_are_refused_at_creation(toy_game, anna, monkeypatch, url):
    resolving(
        monkeypatch, {"metadata.internal.test": "169.254.169.254", "intranet.test": "10.0.0.7"}
    )
    with pytest.raises(ServiceError) as refused:
        add_webhook(toy_game, anna, "json", url)
    assert refused.value.code == "invalid"
    assert "not public" in refused.value.detail
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://hooks.example.com/x", "Only https://"),
        ("ftp://hooks.example.com/x", "Only https://"),
        ("https://user:pw@hooks.example.com/x", "user name or password"),
        ("https:///x", "no host"),
        ("https://hooks.example.com/" + "a" * 500, "longer than"),
        ("https://hooks.example.com/a b", "spaces"),
        ("https://hooks.example.com:99999/", "not a valid URL"),
    ],
)
def test_malformed_urls_are_refused(url, why):
    with pytest.raises(UnsafeUrl, match=why):
        WEBHOOK_POSTS.check_url(url)


def test_loopback_needs_the_test_allowance(toy_game, anna, settings, receiver):
    settings.WEBHOOKS_ALLOW_INSECURE_LOCALHOST = False
    for url in (receiver.url(), f"https://127.0.0.1:{receiver.port}/", "https://[::1]/"):
        with pytest.raises(ServiceError):
            add_webhook(toy_game, anna, "json", url)
    settings.WEBHOOKS_ALLOW_INSECURE_LOCALHOST = True
    # Even with it, plain http only to loopback hosts.
    with pytest.raises(UnsafeUrl, match="Only https://"):
        WEBHOOK_POSTS.check_url("http://hooks.example.com/")
    add_webhook(toy_game, anna, "json", receiver.url())


def test_a_name_that_moved_to_a_private_address_is_refused_at_delivery(
    toy_game, anna, receiver, monkeypatch
):
    """Checked when added, resolved again when posting (the name may have changed since)."""
    resolving(monkeypatch, {"hooks.example.test": "127.0.0.1"})
    add_webhook(toy_game, anna, "json", f"https://hooks.example.test:{receiver.port}/x")
    play_some(toy_game)
    resolving(monkeypatch, {"hooks.example.test": "10.20.30.40"})

    delivery.send_due_deliveries()

    row = WebhookDelivery.objects.get()
    assert row.status == WebhookDelivery.Status.FAILED  # permanent: not retried
    assert "resolves to an address that is not public (10.20.30.40)" in row.last_error
    assert Webhook.objects.get().consecutive_failures == 1
    assert receiver.posts == []


def test_the_post_goes_to_the_checked_address_with_the_host_named(
    toy_game, anna, receiver, monkeypatch
):
    """Connecting to the address that was checked, not to a second lookup (DNS rebinding):
    the resolver is asked once per post, and the Host header still names the host."""
    calls = []

    def getaddrinfo(host, port, *args, **kwargs):
        # The first answer is the receiver; a second lookup of the name would be answered
        # with an unroutable address (TEST-NET-1), where the post would never arrive.
        calls.append(host)
        address = "127.0.0.1" if calls.count(host) == 1 or host == "127.0.0.1" else "192.0.2.1"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    add_webhook(toy_game, anna, "json", receiver.url())
    play_some(toy_game)
    Webhook.objects.update(url=f"http://localhost:{receiver.port}/pinned")
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)

    delivery.send_due_deliveries()

    assert calls.count("localhost") == 1
    [post] = receiver.posts
    assert post.path == "/pinned"
    assert post.headers["Host"] == f"localhost:{receiver.port}"
    assert WebhookDelivery.objects.get().status == WebhookDelivery.Status.SENT


def test_a_name_with_one_bad_address_among_good_ones_is_refused(monkeypatch):
    def getaddrinfo(host, port, *args, **kwargs):
        return [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", port)),
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.1", port)),
        ]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    with pytest.raises(UnsafeUrl, match=r"10\.0\.0\.1"):
        WEBHOOK_POSTS.check_destination("https://mixed.example.test/")


def test_an_unresolvable_name_is_transient_at_delivery(toy_game, anna, receiver, monkeypatch):
    add_webhook(toy_game, anna, "json", receiver.url())
    play_some(toy_game)

    def getaddrinfo(host, port, *args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    delivery.send_due_deliveries()
    row = WebhookDelivery.objects.get()
    assert row.status == WebhookDelivery.Status.PENDING
    assert "could not be resolved" in row.last_error


def test_redirects_are_not_followed(toy_game, anna, receiver):
    receiver.answers = [302]
    add_webhook(toy_game, anna, "json", receiver.url())
    play_some(toy_game)
    delivery.send_due_deliveries()
    row = WebhookDelivery.objects.get()
    assert (row.status, row.last_error) == (WebhookDelivery.Status.FAILED, "HTTP 302")
    assert len(receiver.posts) == 1
