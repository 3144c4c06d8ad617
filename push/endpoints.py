"""What a push subscription must be: an endpoint the service will post to, and keys it
can encrypt for. Pure checks (no database); each refusal is a sentence.

An endpoint is ``https://`` on a host whose every address is public (``unsafe_address``,
asked again before each post): the endpoint comes from a browser, so a person could
otherwise make the service post to its own network. ``PUSH_ALLOW_INSECURE_LOCALHOST``
(tests and local runs) also allows ``http://`` to a loopback host.
"""

import base64
import binascii
import ipaddress
import socket
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.utils.translation import gettext as _

from .models import MAX_ENDPOINT_LENGTH

LOOPBACK_HOSTS = {"localhost", "127.0.0.1", "::1"}


def b64url_decode(text: str) -> bytes:
    """Bytes of base64url ``text`` with or without padding; ``ValueError`` if it is not."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as exc:
        raise ValueError("not base64url") from exc


def b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _loopback_allowed(scheme: str, host: str) -> bool:
    return settings.PUSH_ALLOW_INSECURE_LOCALHOST and host in LOOPBACK_HOSTS and scheme == "http"


def endpoint_problem(endpoint: str) -> str | None:
    """Why ``endpoint`` is refused, or None: its form only (addresses: ``unsafe_address``)."""
    if len(endpoint) > MAX_ENDPOINT_LENGTH:
        return _("The endpoint is longer than %(max)d characters.") % {"max": MAX_ENDPOINT_LENGTH}
    try:
        parts = urlsplit(endpoint)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        return _("The endpoint is not a URL.")
    host = parts.hostname or ""
    if not host or parts.username or parts.password:
        return _("The endpoint must be an https:// URL with a host and no user name.")
    if parts.scheme != "https" and not _loopback_allowed(parts.scheme, host):
        return _("The endpoint must be an https:// URL with a host and no user name.")
    return None


def keys_problem(p256dh: str, auth: str) -> str | None:
    """Why these are not a browser's push keys (a P-256 public key, uncompressed, and a
    16-byte secret, both base64url), or None."""
    try:
        point = b64url_decode(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        if len(point) != 65:
            raise ValueError("compressed")
    except ValueError:
        return _("keys.p256dh must be the browser's P-256 public key in base64url.")
    try:
        if len(b64url_decode(auth)) != 16:
            raise ValueError("length")
    except ValueError:
        return _("keys.auth must be the browser's 16-byte secret in base64url.")
    return None


def unsafe_address(endpoint: str) -> str | None:
    """Why the service will not post to ``endpoint`` now, or None: every address its host
    resolves to must be public (loopback only under the allowance). English, for the
    delivery's record."""
    parts = urlsplit(endpoint)
    host = parts.hostname or ""
    try:
        infos = socket.getaddrinfo(host, parts.port or 443, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return "The endpoint's host does not resolve."
    for info in infos:
        address = ipaddress.ip_address(info[4][0])
        if address.is_loopback and _loopback_allowed(parts.scheme, host):
            continue
        if not address.is_global:
            return "The endpoint's host has an address that is not public."
    return None
