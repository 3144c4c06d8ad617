"""What to believe of forwarded headers: only what the proxies in TRUSTED_PROXIES say.

Any client can send ``X-Forwarded-For: 1.2.3.4`` or ``X-Forwarded-Proto: https``; only a
reverse proxy we run overwrites or appends to them truthfully. So the client address is
read from ``X-Forwarded-For`` only when the connection comes from a trusted proxy, and
then it is the right-most address that is not one (everything left of it was written by
the client itself). ``ForwardedHeadersMiddleware`` drops the forwarded headers of every
other connection, so that Django's ``SECURE_PROXY_SSL_HEADER`` cannot be fooled either,
and notes that it did: such a request was most likely relayed by a proxy left out of
``TRUSTED_PROXIES``, which checks for "a client on this machine" must not forget.
"""

import ipaddress
from collections.abc import Callable, Iterable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

# The headers (as META keys) a trusted proxy sets; from anybody else they are dropped.
FORWARDED_HEADERS = (
    "HTTP_X_FORWARDED_FOR",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_FORWARDED_PORT",
    "HTTP_X_REAL_IP",
    "HTTP_FORWARDED",
)

# Set in META (where no client header can land: those all start with HTTP_) to the
# forwarded headers ForwardedHeadersMiddleware dropped, when it dropped any.
DROPPED_FORWARDED_HEADERS = "piratz.dropped_forwarded_headers"


def is_trusted_proxy(address: str, networks: Iterable | None = None) -> bool:
    """Whether ``address`` (an IP as text) is in ``networks`` (default TRUSTED_PROXIES)."""
    networks = settings.TRUSTED_PROXIES if networks is None else networks
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(request: HttpRequest) -> str:
    """The IP address of the client that sent ``request``, as far as it can be known.

    ``REMOTE_ADDR`` unless that is a trusted proxy; then the right-most hop of
    ``X-Forwarded-For`` that is not a trusted proxy (if every hop is trusted, the
    left-most one). With no ``TRUSTED_PROXIES`` (the default) the header is never read.
    """
    remote = request.META.get("REMOTE_ADDR", "")
    if not is_trusted_proxy(remote):
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
    hops = [hop.strip() for hop in forwarded if hop.strip()]
    for hop in reversed(hops):
        if not is_trusted_proxy(hop):
            return hop
    return hops[0] if hops else remote


def relayed_by_untrusted_peer(request: HttpRequest) -> bool:
    """Whether ``request`` came with forwarded headers from a connection that is not a
    trusted proxy (``ForwardedHeadersMiddleware`` dropped them).

    Their content proves nothing, but their presence says that a proxy (one left out of
    ``TRUSTED_PROXIES``) most likely relayed the request, for a client anywhere: the
    connection's own address is then the proxy's, not the client's.
    """
    return bool(request.META.get(DROPPED_FORWARDED_HEADERS))


def is_relayed(request: HttpRequest) -> bool:
    """Whether ``request`` says it was relayed by a proxy: it carries forwarded headers
    from a trusted proxy, or carried some from an untrusted peer
    (``relayed_by_untrusted_peer``)."""
    return relayed_by_untrusted_peer(request) or any(
        header in request.META for header in FORWARDED_HEADERS
    )


class ForwardedHeadersMiddleware:
    """Remove forwarded headers from requests that do not come from a trusted proxy, and
    note which were removed (``relayed_by_untrusted_peer``).

    Must come before ``SecurityMiddleware``, which reads ``SECURE_PROXY_SSL_HEADER``.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not is_trusted_proxy(request.META.get("REMOTE_ADDR", "")):
            dropped = tuple(
                header for header in FORWARDED_HEADERS if request.META.pop(header, None) is not None
            )
            if dropped:
                request.META[DROPPED_FORWARDED_HEADERS] = dropped
        return self.get_response(request)
