"""Which IP addresses the service may connect to for a person: one table of those it may not.

Every outbound post to an address someone typed (a webhook's URL, a browser's push
endpoint, anything later) is checked against this one table, by
``core.outbound.transport``. The table (``SPECIAL_NETWORKS``) follows IANA's IPv4 and
IPv6 Special-Purpose Address Registries. Each row refuses its network, except the rows
of the IPv6 forms that carry an IPv4 address (IPv4-mapped, NAT64, 6to4, Teredo): those
are decided by the IPv4 address inside, as that is where the packets end up. Any other
IPv6 address outside global unicast (``2000::/3``) is refused too. Python's
``is_global`` is not enough: it calls global site-local ``fec0::/10``, documentation
``3fff::/20``, the 6to4 relay anycast ``192.88.99.0/24``, IPv4-compatible ``::7f00:1``,
the NAT64 forms of the metadata address and of loopback (``64:ff9b::a9fe:a9fe``,
``64:ff9b::7f00:1``) and a 6to4 address of a private IPv4 network (``2002:a00::/24``).
"""

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

GLOBAL_UNICAST_V6 = ipaddress.IPv6Network("2000::/3")


# Each of these is called only for an address inside its row's network, where the
# embedded IPv4 address is always there: the asserts state that, for the type checker.
def _mapped(ip: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, ...]:
    assert ip.ipv4_mapped is not None
    return (ip.ipv4_mapped,)


def _nat64(ip: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, ...]:
    return (ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF),)  # RFC 6052: the last 32 bits


def _sixtofour(ip: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, ...]:
    assert ip.sixtofour is not None
    return (ip.sixtofour,)


def _teredo(ip: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, ...]:
    assert ip.teredo is not None
    return ip.teredo  # (server, client): a packet passes through both


@dataclass(frozen=True)
class SpecialNetwork:
    """A row of the table: ``network``, what it is (``name``), and how it is decided:
    refused, unless ``embedded`` names the IPv4 addresses that decide it instead;
    ``loopback`` rows are allowed only where loopback is (tests, local runs)."""

    network: IPNetwork
    name: str
    embedded: Callable[[ipaddress.IPv6Address], tuple[ipaddress.IPv4Address, ...]] | None = None
    loopback: bool = False


def _row(cidr: str, name: str, **kwargs) -> SpecialNetwork:
    return SpecialNetwork(ipaddress.ip_network(cidr), name, **kwargs)


SPECIAL_NETWORKS: tuple[SpecialNetwork, ...] = (
    # IPv4 (RFC 6890 and its updates).
    _row("0.0.0.0/8", "this network"),
    _row("10.0.0.0/8", "private"),
    _row("100.64.0.0/10", "shared address space (carrier-grade NAT)"),
    _row("127.0.0.0/8", "loopback", loopback=True),
    _row("169.254.0.0/16", "link-local (cloud metadata)"),
    _row("172.16.0.0/12", "private"),
    _row("192.0.0.0/24", "IETF protocol assignments"),
    _row("192.0.2.0/24", "documentation (TEST-NET-1)"),
    _row("192.88.99.0/24", "6to4 relay anycast"),
    _row("192.168.0.0/16", "private"),
    _row("198.18.0.0/15", "benchmarking"),
    _row("198.51.100.0/24", "documentation (TEST-NET-2)"),
    _row("203.0.113.0/24", "documentation (TEST-NET-3)"),
    _row("224.0.0.0/4", "multicast"),
    _row("240.0.0.0/4", "reserved, and broadcast"),
    # IPv6 (RFC 6890 and its updates); the most specific row decides, so ::1 is loopback,
    # not IPv4-compatible, and Teredo is not refused with the rest of 2001::/23.
    _row("::/128", "unspecified"),
    _row("::1/128", "loopback", loopback=True),
    _row("::/96", "IPv4-compatible (deprecated)"),
    _row("::ffff:0:0/96", "IPv4-mapped", embedded=_mapped),
    _row("::ffff:0:0:0/96", "IPv4-translated"),
    _row("64:ff9b::/96", "NAT64", embedded=_nat64),
    # Local-use NAT64 prefixes may be of any length within the /48, which moves where the
    # IPv4 address sits (RFC 6052): the translator is the operator's own, so refused.
    _row("64:ff9b:1::/48", "local-use NAT64"),
    _row("100::/64", "discard-only"),
    _row("2001::/23", "IETF protocol assignments"),
    _row("2001::/32", "Teredo", embedded=_teredo),
    _row("2001:db8::/32", "documentation"),
    _row("2002::/16", "6to4", embedded=_sixtofour),
    _row("3fff::/20", "documentation"),
    _row("5f00::/16", "SRv6 segment identifiers"),
    _row("fc00::/7", "unique local"),
    _row("fe80::/10", "link-local"),
    _row("fec0::/10", "site-local (deprecated)"),
    _row("ff00::/8", "multicast"),
)


def special_network(ip: IPAddress) -> SpecialNetwork | None:
    """The most specific row of ``SPECIAL_NETWORKS`` holding ``ip``, if any."""
    rows = [row for row in SPECIAL_NETWORKS if ip in row.network]
    return max(rows, key=lambda row: row.network.prefixlen, default=None)


def refusal(address: str, *, allow_loopback: bool = False) -> str | None:
    """Why the service must not connect to ``address`` (an IP address, an IPv6 zone index
    allowed), e.g. ``"private"`` or ``"6to4 of 10.0.0.1: private"``; None if it may."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    row = special_network(ip)
    if row is None:
        if ip.version == 6 and ip not in GLOBAL_UNICAST_V6:
            return "not global unicast"
        return None
    if row.loopback:
        return None if allow_loopback else row.name
    if row.embedded is None:
        return row.name
    assert isinstance(ip, ipaddress.IPv6Address)  # only IPv6 rows carry an IPv4 address
    for ipv4 in row.embedded(ip):
        reason = refusal(str(ipv4), allow_loopback=allow_loopback)
        if reason is not None:
            return f"{row.name} of {ipv4}: {reason}"
    return None
