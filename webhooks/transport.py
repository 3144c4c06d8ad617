"""HTTP posts to webhook URLs, refusing server-side request forgery: check, resolve, pin, send.

Only ``https://`` URLs to public addresses. The host is resolved and *every* address
checked (private, loopback, link-local, multicast, reserved and unspecified ranges are
refused, IPv4-mapped IPv6 addresses by their IPv4 address), and the connection goes to
the address that was checked, not to a second lookup that a DNS rebinding could answer
differently; TLS still verifies the certificate for the URL's host name (SNI), and the
``Host`` header names it. ``WEBHOOKS_ALLOW_INSECURE_LOCALHOST`` (tests, local runs) also
allows ``http://`` and loopback addresses, for loopback hosts only.

``http.client`` (standard library) rather than ``urllib.request``: it never follows a
redirect (a 3xx is an answer like any other, refused as permanent), and connecting to
the checked address is one overridden method. Timeouts bound every connect and read,
and at most ``MAX_RESPONSE_BYTES`` of the answer are read.
"""

import http.client
import ipaddress
import socket
import ssl
from urllib.parse import SplitResult, urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

MAX_RESPONSE_BYTES = 64 * 1024
LOOPBACK_HOSTS = {"localhost", "127.0.0.1", "::1"}
USER_AGENT = "Piratz-Webhooks/1"


class DeliveryError(Exception):
    """A post that did not succeed; ``permanent``: trying again cannot help."""

    def __init__(self, message: str, *, permanent: bool):
        super().__init__(message)
        self.permanent = permanent


class UnsafeUrl(DeliveryError):
    """A URL the service will not post to (bad form, or an address SSRF could abuse)."""

    def __init__(self, message: str):
        super().__init__(message, permanent=True)


def masked_url(url: str) -> str:
    """``scheme://host[:port]/…``: what may be shown of a webhook URL (its path is a token)."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "…"
    host = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{host}{port}/…"


def _insecure_localhost() -> bool:
    return bool(getattr(settings, "WEBHOOKS_ALLOW_INSECURE_LOCALHOST", False))


def check_url(url: str) -> SplitResult:
    """The parts of ``url`` if its form is acceptable; ``UnsafeUrl`` saying why not.

    Form only (no lookup): ``https``, a host name, no credentials, at most
    ``Webhook.MAX_URL_LENGTH`` characters, no whitespace or control characters.
    """
    from .models import Webhook

    if len(url) > Webhook.MAX_URL_LENGTH:
        raise UnsafeUrl(
            _("The URL is longer than %(max)d characters.") % {"max": Webhook.MAX_URL_LENGTH}
        )
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in url):
        raise UnsafeUrl(_("The URL contains spaces or control characters."))
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 -- raises ValueError for a port that is not a number
    except ValueError:
        raise UnsafeUrl(_("This is not a valid URL.")) from None
    if not parts.hostname:
        raise UnsafeUrl(_("The URL has no host."))
    if parts.username is not None or parts.password is not None:
        raise UnsafeUrl(_("The URL must not contain a user name or password."))
    if parts.scheme == "https":
        return parts
    if parts.scheme == "http" and _insecure_localhost() and parts.hostname in LOOPBACK_HOSTS:
        return parts
    raise UnsafeUrl(_("Only https:// URLs are accepted."))


def address_allowed(address: str) -> bool:
    """May the service connect to this IP address? Public unicast only (see module doc)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # drop an IPv6 zone index
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return _insecure_localhost()
    return ip.is_global and not (
        ip.is_multicast or ip.is_reserved or ip.is_link_local or ip.is_unspecified
    )


def resolve(parts: SplitResult) -> list[str]:
    """The addresses of the URL's host, every one of them checked; ``UnsafeUrl`` if any is
    refused, a transient ``DeliveryError`` if the name does not resolve now."""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        infos = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise DeliveryError(
            _("The host %(host)s could not be resolved (%(error)s).")
            % {"host": parts.hostname, "error": exc},
            permanent=False,
        ) from None
    addresses = list(dict.fromkeys(info[4][0] for info in infos))
    refused = [address for address in addresses if not address_allowed(address)]
    if refused or not addresses:
        # One bad address is enough: a name that resolves partly to an internal address is
        # someone trying, and connecting to "the good one" would still be a lookup we trust.
        raise UnsafeUrl(
            _("The host %(host)s resolves to an address that is not public (%(address)s).")
            % {"host": parts.hostname, "address": refused[0] if refused else "-"}
        )
    return addresses


def check_destination(url: str) -> None:
    """``check_url`` and ``resolve``: what creating a webhook checks (delivery does again)."""
    resolve(check_url(url))


def post(url: str, body: bytes, headers: dict[str, str], *, timeout: float) -> int:
    """POST ``body`` to ``url`` at a checked address; returns the HTTP status.

    Raises ``UnsafeUrl`` (permanent) for a refused URL or address, ``DeliveryError``
    (transient) for DNS, connection, TLS and timeout errors. Redirects are not followed.
    """
    parts = check_url(url)
    address = resolve(parts)[0]
    port = parts.port or (443 if parts.scheme == "https" else 80)
    if parts.scheme == "https":
        connection = _PinnedHTTPSConnection(
            parts.hostname,
            port,
            address=address,
            timeout=timeout,
            context=ssl.create_default_context(),
        )
    else:
        connection = _PinnedHTTPConnection(parts.hostname, port, address=address, timeout=timeout)
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    try:
        connection.request(
            "POST",
            path,
            body=body,
            headers={"Content-Type": "application/json", "User-Agent": USER_AGENT, **headers},
        )
        response = connection.getresponse()
        response.read(MAX_RESPONSE_BYTES)  # the answer is not used; read a little, politely
        return response.status
    except (OSError, http.client.HTTPException) as exc:  # sockets, TLS, timeouts, bad replies
        raise DeliveryError(
            _("No answer from %(host)s: %(error)s")
            % {"host": parts.hostname, "error": f"{type(exc).__name__} {exc}".strip()},
            permanent=False,
        ) from None
    finally:
        connection.close()


def _pinned(address: str):
    # http.client keeps its connect function in an instance attribute (for tests to
    # replace): the port and timeouts are its own, the address is the one we checked.
    def create_connection(host_port, timeout, source_address=None):
        return socket.create_connection((address, host_port[1]), timeout, source_address)

    return create_connection


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Connects to ``address`` (already checked) whatever ``host`` resolves to now; ``host``
    stays the name for the ``Host`` header (and for TLS in the subclass below)."""

    def __init__(self, host, port, *, address: str, **kwargs):
        super().__init__(host, port, **kwargs)
        self._create_connection = _pinned(address)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """``_PinnedHTTPConnection`` over TLS, verifying the certificate for ``host`` (SNI)."""

    def __init__(self, host, port, *, address: str, **kwargs):
        super().__init__(host, port, **kwargs)
        self._create_connection = _pinned(address)
