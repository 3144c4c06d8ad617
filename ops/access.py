"""Who may read ``/metrics``: a bearer token and/or an address list, from the environment.

- ``METRICS_TOKEN`` set: the request must carry ``Authorization: Bearer <token>``.
- ``METRICS_ALLOWED_ADDRESSES`` set: the client address (as ``TRUSTED_PROXIES`` let it be
  known) must be in one of its networks.
- Both set: both must hold. Neither: only a scraper on this machine (a loopback address,
  and no forwarded headers, trusted or dropped: not a client relayed by a proxy on this
  machine, whether or not ``TRUSTED_PROXIES`` lists it).
"""

import hmac
import ipaddress

from django.conf import settings
from django.http import HttpRequest

from core.proxies import client_address, is_relayed

ALLOWED = "allowed"
NO_TOKEN = "no_token"  # 401: the token is missing or wrong
NOT_FROM_HERE = "not_from_here"  # 403: the address is not allowed


def _address_in(request: HttpRequest, networks) -> bool:
    try:
        address = ipaddress.ip_address(client_address(request).strip())
    except ValueError:
        return False
    return any(address in network for network in networks)


def _token_matches(request: HttpRequest, token: str) -> bool:
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    # compare_digest: the time taken does not tell how much of a guess was right.
    return scheme.lower() == "bearer" and hmac.compare_digest(
        given.strip().encode(), token.encode()
    )


def metrics_access(request: HttpRequest) -> str:
    """``ALLOWED``, or why not: ``NO_TOKEN`` or ``NOT_FROM_HERE``."""
    token = settings.METRICS_TOKEN
    networks = settings.METRICS_ALLOWED_ADDRESSES
    if not token and not networks:
        local = _address_in(request, [ipaddress.ip_network("127.0.0.0/8")]) or _address_in(
            request, [ipaddress.ip_network("::1/128")]
        )
        # A proxy on this machine connects from loopback: whatever it relays (a client
        # anywhere) must not pass for a local scraper. ForwardedHeadersMiddleware has
        # dropped the headers of one left out of TRUSTED_PROXIES, but noted it did.
        return ALLOWED if local and not is_relayed(request) else NOT_FROM_HERE
    if networks and not _address_in(request, networks):
        return NOT_FROM_HERE
    if token and not _token_matches(request, token):
        return NO_TOKEN
    return ALLOWED
