"""A stand-in for DNS in tests: chosen host names answer chosen addresses, as a name server
would; every other host resolves for real."""

import socket

REAL_GETADDRINFO = socket.getaddrinfo


def resolving(monkeypatch, names: dict[str, str]) -> None:
    """Only the resolver is replaced: ``names`` (host -> IP) answer as a DNS server would,
    other hosts resolve for real (until the test ends)."""

    def getaddrinfo(host, port, *args, **kwargs):
        if host in names:
            family = socket.AF_INET6 if ":" in names[host] else socket.AF_INET
            return [(family, socket.SOCK_STREAM, 6, "", (names[host], port))]
        return REAL_GETADDRINFO(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
