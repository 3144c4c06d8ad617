"""The transport of every outbound post: TLS verified for the URL's host name on the checked
address, and the headers a kind of post sends."""

import socket
import ssl
import threading

import pytest

from core.outbound.transport import DeliveryError, OutboundPosts
from tests.resolver import resolving

POSTS = OutboundPosts(
    max_url_length=200, loopback_setting="TEST_OUTBOUND_LOOPBACK", user_agent="Piratz-Test/1"
)


@pytest.fixture
def loopback_allowed(settings):
    settings.TEST_OUTBOUND_LOOPBACK = True


@pytest.fixture
def listener():
    """A socket on 127.0.0.1 that answers one request ``204 No Content`` and keeps what it
    was sent in ``received``."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(5)
    received = bytearray()

    def answer():
        try:
            connection, _ = server.accept()
        except OSError:
            return  # no connection came (the TLS test stops before one is read)
        with connection:
            connection.settimeout(5)
            while b"\r\n\r\n" not in received:
                data = connection.recv(4096)
                if not data:
                    return  # the client hung up (the TLS test does, before a request)
                received.extend(data)
            connection.sendall(b"HTTP/1.1 204 No Content\r\n\r\n")

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    yield server.getsockname()[1], received
    server.close()
    thread.join(5)


def test_https_connects_to_the_checked_address_and_verifies_the_url_host_name(
    loopback_allowed, listener, monkeypatch
):
    port, _received = listener
    resolving(monkeypatch, {"push.example.net": "127.0.0.1"})
    seen = {}
    real_context = ssl.create_default_context

    class Handshake:
        def __init__(self, context):
            seen["verify"] = (context.verify_mode, context.check_hostname)

        def wrap_socket(self, sock, server_hostname):
            seen["peer"] = sock.getpeername()[0]
            seen["server_hostname"] = server_hostname
            raise ssl.SSLCertVerificationError("stopped by the test")

    monkeypatch.setattr(ssl, "create_default_context", lambda: Handshake(real_context()))

    with pytest.raises(DeliveryError) as failed:
        POSTS.post(f"https://push.example.net:{port}/x", b"", {}, timeout=2, total_timeout=5)

    assert seen == {
        "verify": (ssl.CERT_REQUIRED, True),
        "peer": "127.0.0.1",
        "server_hostname": "push.example.net",
    }
    assert not failed.value.permanent


def test_the_callers_headers_replace_the_defaults_whatever_their_case(loopback_allowed, listener):
    port, received = listener
    headers = {"content-type": "application/octet-stream", "HOST": "elsewhere", "TTL": "60"}

    assert POSTS.post(f"http://127.0.0.1:{port}/x", b"abc", headers, timeout=2, total_timeout=5)
    lines = bytes(received).decode().lower().split("\r\n")

    assert lines[0] == "post /x http/1.1"
    assert [line for line in lines if line.startswith("content-type:")] == [
        "content-type: application/octet-stream"
    ]
    assert [line for line in lines if line.startswith("host:")] == [f"host: 127.0.0.1:{port}"]
    assert "user-agent: piratz-test/1" in lines and "ttl: 60" in lines
    assert "content-length: 3" in lines


def test_loopback_is_refused_without_the_allowance_before_connecting(settings):
    settings.TEST_OUTBOUND_LOOPBACK = False
    with pytest.raises(DeliveryError, match="Only https://") as refused:
        POSTS.post("http://127.0.0.1:9/x", b"", {}, timeout=2, total_timeout=5)
    assert refused.value.permanent
    with pytest.raises(DeliveryError, match="resolves to an address that is not public") as refused:
        POSTS.post("https://localhost:9/x", b"", {}, timeout=2, total_timeout=5)
    assert refused.value.permanent
