"""Push test helpers: a push service of our own on 127.0.0.1 that decrypts what it gets
(RFC 8291, aes128gcm) with the subscription's private key and checks the VAPID token
(RFC 8292); browser-side keys made with ``cryptography``; VAPID keys set; the push
services' names the tests subscribe at resolve to a public address."""

import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from push.actions import do_subscribe
from push.endpoints import b64url_decode, b64url_encode
from push.management.commands.make_vapid_keys import new_key_pair
from tests.resolver import resolving

# Subscribing resolves the endpoint's host (push.endpoints): these names answer a public
# address, as a real push service's do. Nothing is ever posted there.
PUBLIC_ADDRESS = "93.184.215.14"
PUSH_SERVICES = {"push.example.net": PUBLIC_ADDRESS, "push.example.org": PUBLIC_ADDRESS}


@pytest.fixture(autouse=True)
def _push_services_resolve(monkeypatch):
    resolving(monkeypatch, PUSH_SERVICES)


@dataclass
class Device:
    """A browser's side of a subscription: its key pair and secret."""

    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64url_encode(
            self.private_key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    @property
    def auth_b64(self) -> str:
        return b64url_encode(self.auth)

    def decrypt(self, body: bytes) -> dict:
        plain = http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)

    def subscribe(self, user, endpoint: str):
        return do_subscribe(user, endpoint, self.p256dh, self.auth_b64)[0]


@dataclass
class Pushed:
    path: str
    headers: dict
    body: bytes


@dataclass
class PushService:
    """An HTTP server on 127.0.0.1 in a thread: records each POST and answers it with the
    next status of ``answers`` (201 once they run out)."""

    server: ThreadingHTTPServer
    posts: list[Pushed] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def url(self, path: str) -> str:
        return self.origin + path


@pytest.fixture
def push_service():
    holder = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("Content-Length", 0))
            service = holder["service"]
            service.posts.append(
                Pushed(
                    self.path,
                    {k.lower(): v for k, v in self.headers.items()},
                    self.rfile.read(length),
                )
            )
            status = service.answers.pop(0) if service.answers else 201
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    holder["service"] = service = PushService(server)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield service
    server.shutdown()
    server.server_close()


@pytest.fixture
def vapid(settings):
    private, public = new_key_pair()
    settings.VAPID_PRIVATE_KEY = private
    settings.VAPID_PUBLIC_KEY = public
    settings.VAPID_SUBJECT = "mailto:ops@piratz.example"
    settings.PUSH_ALLOW_INSECURE_LOCALHOST = True
    settings.SITE_URL = "https://piratz.example"
    return public


def verify_vapid(headers: dict, public_key: str, audience: str) -> dict:
    """The claims of the ``Authorization: vapid t=…, k=…`` header, after checking that
    ``k`` is ``public_key`` and the ES256 signature; raises if anything is off."""
    scheme, _, rest = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(item.strip().split("=", 1) for item in rest.split(","))
    assert parts["k"] == public_key
    header_b64, claims_b64, signature_b64 = parts["t"].split(".")
    assert json.loads(b64url_decode(header_b64)) == {"typ": "JWT", "alg": "ES256"}
    signature = b64url_decode(signature_b64)
    der = encode_dss_signature(
        int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    )
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(public_key))
    key.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    claims = json.loads(b64url_decode(claims_b64))
    assert claims["aud"] == audience
    return claims
