"""The one table of networks no outbound post may reach: every row, and the IPv4 inside IPv6."""

import ipaddress

import pytest

from core.outbound.addresses import SPECIAL_NETWORKS, refusal

PUBLIC_V4 = "93.184.215.14"
PRIVATE_V4 = "10.0.0.1"

REFUSED_ROWS = [row for row in SPECIAL_NETWORKS if row.embedded is None]
EMBEDDING_ROWS = [row for row in SPECIAL_NETWORKS if row.embedded is not None]


def _ends(network) -> list[str]:
    return [str(network[0]), str(network[-1])]


def _embed(row_name: str, ipv4: str) -> str:
    """``ipv4`` written in the IPv6 form of the row called ``row_name``."""
    v4 = int(ipaddress.IPv4Address(ipv4))
    if row_name == "IPv4-mapped":
        return str(ipaddress.IPv6Address((0xFFFF << 32) | v4))
    if row_name == "NAT64":
        return str(ipaddress.IPv6Address((0x64FF9B << 96) | v4))
    if row_name == "6to4":
        return str(ipaddress.IPv6Address((0x2002 << 112) | (v4 << 80) | 1))
    if row_name == "Teredo":  # a public server, and the client's address inverted
        server = int(ipaddress.IPv4Address(PUBLIC_V4))
        return str(ipaddress.IPv6Address((0x20010000 << 96) | (server << 64) | (v4 ^ 0xFFFFFFFF)))
    raise AssertionError(row_name)


@pytest.mark.parametrize(
    ("row", "address"),
    [(row, address) for row in REFUSED_ROWS for address in _ends(row.network)],
    ids=lambda value: str(getattr(value, "network", value)),
)
def test_every_address_of_a_refused_network_is_refused(row, address):
    assert refusal(address) is not None
    if not row.loopback:
        assert refusal(address, allow_loopback=True) is not None


@pytest.mark.parametrize("row", EMBEDDING_ROWS, ids=lambda row: row.name)
def test_an_ipv6_form_is_decided_by_its_ipv4_address(row):
    assert refusal(_embed(row.name, PUBLIC_V4)) is None
    assert refusal(_embed(row.name, PRIVATE_V4)) == f"{row.name} of {PRIVATE_V4}: private"
    assert "loopback" in refusal(_embed(row.name, "127.0.0.1"))
    assert "link-local" in refusal(_embed(row.name, "169.254.169.254"))


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("fec0::1", "site-local (deprecated)"),  # is_global says True
        ("3fff::1", "documentation"),  # is_global says True
        ("2002:a00:1::1", "6to4 of 10.0.0.1: private"),  # is_global says True
        ("64:ff9b::a9fe:a9fe", "NAT64 of 169.254.169.254: link-local (cloud metadata)"),
        ("::ffff:10.0.0.1", "IPv4-mapped of 10.0.0.1: private"),
        ("::10.0.0.1", "IPv4-compatible (deprecated)"),
        ("64:ff9b:1::a00:1", "local-use NAT64"),
        ("2001:2::1", "IETF protocol assignments"),  # benchmarking, inside 2001::/23
        ("100::1", "discard-only"),
        ("fd00::1", "unique local"),
        ("fe80::1%eth0", "link-local"),
        ("ff02::1", "multicast"),
        ("4000::1", "not global unicast"),
        ("192.0.0.9", "IETF protocol assignments"),
        ("198.19.255.255", "benchmarking"),
        ("255.255.255.255", "reserved, and broadcast"),
        ("100.127.0.1", "shared address space (carrier-grade NAT)"),
    ],
)
def test_special_addresses_are_refused_with_their_reason(address, why):
    assert refusal(address) == why


@pytest.mark.parametrize(
    "address", ["8.8.8.8", PUBLIC_V4, "2606:4700:4700::1111", "2a00:1450:4001:80b::200e"]
)
def test_public_addresses_are_allowed(address):
    assert refusal(address) is None


def test_loopback_only_with_the_local_allowance():
    for address in ("127.0.0.1", "::1", "::ffff:127.0.0.1"):
        assert refusal(address) is not None
        assert refusal(address, allow_loopback=True) is None


def test_the_table_refuses_whatever_python_calls_not_global():
    """``is_global`` has gaps the other way (above); where it says "not global", so do we,
    but for the IPv4 forms the table decides by their IPv4 address."""
    for row in SPECIAL_NETWORKS:
        network = row.network
        for ip in (network[0], network[network.num_addresses // 2], network[-1]):
            if not ip.is_global and row.embedded is None and not row.loopback:
                assert refusal(str(ip)) is not None, ip
