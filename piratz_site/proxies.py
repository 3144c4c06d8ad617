"""What to believe of forwarded headers: only what the proxies in TRUSTED_PROXIES say.

Any client can send ``X-Forwarded-For: 1.2.3.4`` or ``X-Forwarded-Proto: https``; only a
reverse proxy we run overwrites or appends to them truthfully. So the client address is
read from ``X-Forwarded-For`` only when the connection comes from a trusted proxy, and
then it is the right-most address that is not one (everything left of it was written by
the client itself). ``ForwardedHeadersMiddleware`` drops the forwarded headers of every
other connection, so that Django's ``SECURE_PROXY_SSL_HEADER`` cannot be fooled either.
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


class ForwardedHeadersMiddleware:
    """Remove forwarded headers from requests that do not come from a trusted proxy.

    Must come before ``SecurityMiddleware``, which reads ``SECURE_PROXY_SSL_HEADER``.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not is_trusted_proxy(request.META.get("REMOTE_ADDR", "")):
            for header in FORWARDED_HEADERS:
                request.META.pop(header, None)
        return self.get_response(request)
