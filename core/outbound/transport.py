"""Posts to URLs people typed, refusing server-side request forgery: check, resolve, pin, send.

Every outbound post to an address someone chose (a webhook's URL, a browser's push
endpoint, anything later) goes through here, each kind with its own ``OutboundPosts``
(its URL length, its loopback allowance, its ``User-Agent``). Only ``https://`` URLs to
public addresses: the host is resolved and *every* address checked against the one table
of special-purpose networks (``core.outbound.addresses``), and the connection goes to
the address that was checked, not to a second lookup that a DNS rebinding could answer
differently; TLS still verifies the certificate for the URL's host name (SNI), and the
``Host`` header names it. The kind's allowance setting (tests, local runs) also allows
``http://`` to loopback hosts and loopback addresses.

The socket is ours and HTTP/1.1 is spoken through h11 (a sans-I/O protocol library), so
every socket operation waits only for what is left of the post's total time: an endpoint
that answers a byte at a time cannot hold a worker past ``total_timeout`` (a per-read
timeout, all ``http.client`` offers, let one post last for days). Redirects are never
followed (a 3xx is an answer like any other), and at most ``MAX_RESPONSE_BYTES`` of the
answer are read.
"""

import socket
import ssl
import time
from contextlib import suppress
from dataclasses import dataclass
from typing import cast
from urllib.parse import SplitResult, urlsplit

import h11
from django.conf import settings
from django.utils.translation import gettext as _

from .addresses import refusal

MAX_RESPONSE_BYTES = 64 * 1024
LOOPBACK_HOSTS = {"localhost", "127.0.0.1", "::1"}
# What a post may take beyond its total timeout: its name lookup is the resolver's own
# (glibc's default: 5 s, twice, for each of up to three name servers). A sweep of posts
# counts it in, so its last post still ends before the task's soft time limit.
LOOKUP_ALLOWANCE_SECONDS = 30


class DeliveryError(Exception):
    """A post that did not succeed; ``permanent``: trying again cannot help."""

    def __init__(self, message: str, *, permanent: bool):
        super().__init__(message)
        self.permanent = permanent


class UnsafeUrl(DeliveryError):
    """A URL the service will not post to (bad form, or an address SSRF could abuse)."""

    def __init__(self, message: str):
        super().__init__(message, permanent=True)


# What an API schema can say of a URL ``OutboundPosts.check_url`` accepts: https, a host and
# no user or password (no "@" before the path), no whitespace. Whether the host has public
# addresses only is found by resolving it, which no schema can say.
URL_PATTERN = r"^[Hh][Tt][Tt][Pp][Ss]://[^\s/?#@]+([/?#]\S*)?$"


def answer_error(status: int) -> DeliveryError | None:
    """None for a 2xx answer, else the error: 408, 425, 429 and 5xx are worth retrying;
    any other answer (4xx, and 3xx: redirects are not followed) will not change."""
    if 200 <= status < 300:
        return None
    transient = status in (408, 425, 429) or status >= 500
    return DeliveryError(f"HTTP {status}", permanent=not transient)


def longest_post_seconds(total_timeout: float) -> float:
    """The longest a post with ``total_timeout`` can take, its name lookup included: what a
    sweep of posts keeps free before its task's soft time limit."""
    return total_timeout + LOOKUP_ALLOWANCE_SECONDS


def masked_url(url: str) -> str:
    """``scheme://host[:port]/…``: what may be shown of a URL whose path may be a token
    (a chat webhook's) or name a device (a push endpoint)."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "…"
    host = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{host}{port}/…"


@dataclass(frozen=True)
class OutboundPosts:
    """One kind of outbound post (webhooks, push): URLs of at most ``max_url_length``
    characters, ``http://`` and loopback addresses only while the setting named
    ``loopback_setting`` is on (tests, local runs), sent as ``user_agent``. The app
    that posts makes one and calls its methods; the checks and the table are the same
    for every kind."""

    max_url_length: int
    loopback_setting: str
    user_agent: str

    def allows_loopback(self) -> bool:
        return bool(getattr(settings, self.loopback_setting, False))

    def check_url(self, url: str) -> SplitResult:
        """The parts of ``url`` if its form is acceptable; ``UnsafeUrl`` saying why not.

        Form only (no lookup): ``https``, a host name, no credentials, at most
        ``max_url_length`` characters, no whitespace or control characters.
        """
        if len(url) > self.max_url_length:
            raise UnsafeUrl(
                _("The URL is longer than %(max)d characters.") % {"max": self.max_url_length}
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
        if parts.scheme == "http" and self.allows_loopback() and parts.hostname in LOOPBACK_HOSTS:
            return parts
        raise UnsafeUrl(_("Only https:// URLs are accepted."))

    def address_allowed(self, address: str) -> bool:
        """May the service connect to this IP address? Not if it lies in a special-purpose
        network (``core.outbound.addresses``); loopback only under the allowance."""
        return refusal(address, allow_loopback=self.allows_loopback()) is None

    def resolve(self, parts: SplitResult) -> list[str]:
        """The addresses of the URL's host, every one of them checked; ``UnsafeUrl`` if any
        is refused, a transient ``DeliveryError`` if the name does not resolve now."""
        try:
            infos = socket.getaddrinfo(parts.hostname, _port(parts), type=socket.SOCK_STREAM)
        except (socket.gaierror, UnicodeError) as exc:
            raise DeliveryError(
                _("The host %(host)s could not be resolved (%(error)s).")
                % {"host": parts.hostname, "error": exc},
                permanent=False,
            ) from None
        # Only AF_INET and AF_INET6 answers come back, whose sockaddr starts with the address.
        addresses = list(dict.fromkeys(cast(str, info[4][0]) for info in infos))
        refused = [address for address in addresses if not self.address_allowed(address)]
        if refused or not addresses:
            # One bad address is enough: a name that resolves partly to an internal address
            # is someone trying, and connecting to "the good one" would still be a lookup
            # we trust.
            raise UnsafeUrl(
                _("The host %(host)s resolves to an address that is not public (%(address)s).")
                % {"host": parts.hostname, "address": refused[0] if refused else "-"}
            )
        return addresses

    def check_destination(self, url: str) -> None:
        """``check_url`` and ``resolve``: what accepting a URL checks (each post does again).
        A name lookup: call it outside a transaction."""
        self.resolve(self.check_url(url))

    def post(
        self,
        url: str,
        body: bytes,
        headers: dict[str, str],
        *,
        timeout: float,
        total_timeout: float,
    ) -> int:
        """POST ``body`` to ``url`` at a checked address; returns the HTTP status.

        ``headers`` add to (or replace, whatever their case) ``Content-Type:
        application/json`` and the ``User-Agent``; ``Host``, ``Content-Length`` and
        ``Connection`` are the transport's. The whole post (lookup, connect, TLS, request,
        status and headers) ends within ``total_timeout`` seconds, each socket operation
        within ``timeout`` too; a name lookup is the resolver's own and may alone take
        longer (``LOOKUP_ALLOWANCE_SECONDS``; the post then gives up as it returns).
        Raises ``UnsafeUrl`` (permanent) for a refused URL or address, ``DeliveryError``
        (transient) for DNS, connection, TLS, protocol and timeout errors. Redirects are
        not followed.
        """
        deadline = Deadline(total_timeout, per_operation=timeout)
        parts = self.check_url(url)
        address = self.resolve(parts)[0]
        request_headers = _request_headers(parts, headers, len(body), self.user_agent)
        try:
            with _connect(parts, address, deadline) as sock:
                return _exchange(sock, parts, body, request_headers, deadline)
        except (OSError, h11.ProtocolError) as exc:  # sockets, TLS, timeouts, bad replies
            if isinstance(exc, TimeoutError) and deadline.expired():
                exc = deadline.error()  # a socket's own timeout, cut to the post's end
            raise DeliveryError(
                _("No answer from %(host)s: %(error)s")
                % {"host": parts.hostname, "error": f"{type(exc).__name__} {exc}".strip()},
                permanent=False,
            ) from None


class Deadline:
    """The time left of one post, started now: ``timeout()`` is what the next socket
    operation may wait (never past the end, nor ``per_operation``); ``TimeoutError`` once
    the time is up."""

    def __init__(self, total: float, *, per_operation: float):
        self.total = total
        self.per_operation = per_operation
        self.ends_at = time.monotonic() + total

    def timeout(self) -> float:
        left = self.ends_at - time.monotonic()
        if left <= 0:
            raise self.error()
        return min(left, self.per_operation)

    def expired(self) -> bool:
        return time.monotonic() >= self.ends_at

    def error(self) -> TimeoutError:
        return TimeoutError(f"no complete answer within {self.total:g} s")


def _default_port(parts: SplitResult) -> int:
    return 443 if parts.scheme == "https" else 80


def _port(parts: SplitResult) -> int:
    return parts.port or _default_port(parts)


def _connect(parts: SplitResult, address: str, deadline: Deadline) -> socket.socket:
    """A socket connected to ``address`` (the checked one, whatever the name resolves to
    now), over TLS verified for the URL's host name for ``https``."""
    sock = socket.create_connection((address, _port(parts)), timeout=deadline.timeout())
    if parts.scheme != "https":
        return sock
    try:
        # The handshake is one operation: CPython bounds all of it by the socket's timeout.
        sock.settimeout(deadline.timeout())
        return ssl.create_default_context().wrap_socket(sock, server_hostname=parts.hostname)
    except BaseException:
        sock.close()
        raise


def _host_header(parts: SplitResult) -> str:
    assert parts.hostname is not None  # check_url refused a URL without a host
    host = parts.hostname.encode("idna").decode("ascii")
    host = f"[{host}]" if ":" in host else host
    return host if parts.port in (None, _default_port(parts)) else f"{host}:{parts.port}"


# Headers a caller may not set: the transport's own, for the one request it makes.
_TRANSPORT_HEADERS = {"host", "content-length", "connection"}


def _request_headers(
    parts: SplitResult, headers: dict[str, str], length: int, user_agent: str
) -> dict[str, str]:
    given = {name.lower(): (name, value) for name, value in headers.items()}
    defaults = {"content-type": "application/json", "user-agent": user_agent}
    chosen = [
        *((name.title(), value) for name, value in defaults.items() if name not in given),
        *(pair for name, pair in given.items() if name not in _TRANSPORT_HEADERS),
    ]
    return {
        "Host": _host_header(parts),
        **dict(chosen),
        "Content-Length": str(length),
        "Connection": "close",
    }


def _exchange(
    sock: socket.socket,
    parts: SplitResult,
    body: bytes,
    request_headers: dict[str, str],
    deadline: Deadline,
) -> int:
    """Send the request on ``sock`` and return the answer's status, reading at most
    ``MAX_RESPONSE_BYTES`` of its body, until the deadline."""
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    connection = h11.Connection(h11.CLIENT)
    request = h11.Request(method="POST", target=path, headers=list(request_headers.items()))
    _send_all(
        sock,
        connection.send(request)
        + connection.send(h11.Data(data=body))
        + connection.send(h11.EndOfMessage()),
        deadline,
    )
    event = _next_event(sock, connection, deadline)
    while isinstance(event, h11.InformationalResponse):  # "100 Continue" and the like
        event = _next_event(sock, connection, deadline)
    if not isinstance(event, h11.Response):
        raise ConnectionError("the connection closed without an answer")
    # The status is the answer; its body is read only to be polite, as time allows.
    with suppress(OSError, h11.ProtocolError):
        _read_body(sock, connection, deadline)
    return event.status_code


def _send_all(sock: socket.socket, data: bytes, deadline: Deadline) -> None:
    # One send at a time, not sendall: over TLS each of sendall's sends had the full timeout.
    view = memoryview(data)
    while view:
        sock.settimeout(deadline.timeout())
        view = view[sock.send(view) :]


def _next_event(sock: socket.socket, connection: h11.Connection, deadline: Deadline):
    """The next event from the server, receiving as needed (each receive within the
    time left)."""
    while (event := connection.next_event()) is h11.NEED_DATA:
        sock.settimeout(deadline.timeout())
        connection.receive_data(sock.recv(16 * 1024))
    return event


def _read_body(sock: socket.socket, connection: h11.Connection, deadline: Deadline) -> None:
    read = 0
    while read < MAX_RESPONSE_BYTES:
        event = _next_event(sock, connection, deadline)
        if not isinstance(event, h11.Data):
            return
        read += len(event.data)
