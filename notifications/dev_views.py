"""The local mailbox (``/dev/mailbox/``, only with DEBUG): the emails `make run` has sent.

It reads the files Django's file backend wrote (``EMAIL_FILE_PATH``, ``var/mail/``), not
the outbox table: once sent, an outbox row has its signed links redacted, while the file
IS the email as sent. Those files are MIME, quoted-printable, so a link copied from one
is broken (``=3D``, soft line breaks); here they are decoded and the links are clickable.

It shows everyone's login links, so it answers only a browser on this machine: `make run
ADDR=0.0.0.0:8000` serves the site to the local network, never the mailbox.
"""

import email
import email.policy
import ipaddress
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from piratz_site.proxies import client_address

FILE_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
# The file backend writes this line after every message (console backend's separator).
SEPARATOR = b"\n" + b"-" * 79 + b"\n"
SHOWN = 50  # newest emails on the page
NOT_LOOPBACK = (
    "The local mailbox is shown only to a browser on the machine that runs the service "
    "(127.0.0.1 or ::1): it holds everyone's login links. On that machine, open it there "
    "or read the email files under EMAIL_FILE_PATH (var/mail/ by default).\n"
)


@dataclass(frozen=True)
class MailboxEmail:
    """One email as the file backend wrote it, decoded."""

    subject: str
    to: str
    sent_at: datetime | None
    body: str  # the plain-text part, decoded from quoted-printable


def mail_directory() -> Path | None:
    """Where the default mailer writes emails, or None if it does not write files."""
    mailer: dict[str, Any] = settings.MAILERS.get("default", {})
    if mailer.get("BACKEND") != FILE_BACKEND:
        return None
    return Path(mailer.get("OPTIONS", {})["file_path"])


def read_mailbox(directory: Path, limit: int = SHOWN) -> list[MailboxEmail]:
    """The newest ``limit`` emails in the file backend's ``directory``, newest first."""
    files = sorted(directory.glob("*.log"), key=lambda file: file.stat().st_mtime, reverse=True)
    emails: list[MailboxEmail] = []
    for file in files:
        # One file per connection; a connection may have sent several emails.
        chunks = [chunk for chunk in file.read_bytes().split(SEPARATOR) if chunk.strip()]
        emails.extend(_parse(chunk) for chunk in reversed(chunks))
        if len(emails) >= limit:
            break
    emails.sort(key=lambda item: item.sent_at or datetime.min.replace(tzinfo=UTC), reverse=True)
    return emails[:limit]


def _parse(raw: bytes) -> MailboxEmail:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    part = message.get_body(preferencelist=("plain", "html"))
    try:
        sent_at = parsedate_to_datetime(str(message["Date"])).astimezone(UTC)
    except (TypeError, ValueError):  # no Date header, or not a date
        sent_at = None
    return MailboxEmail(
        subject=str(message["Subject"] or ""),
        to=str(message["To"] or ""),
        sent_at=sent_at,
        body=part.get_content() if part is not None else "",
    )


def _is_loopback(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    # A dual-stack runserver ([::]) sees an IPv4 client as ::ffff:127.0.0.1.
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def is_local_client(request: HttpRequest) -> bool:
    """Whether ``request`` comes from a browser on this machine.

    The connection's own address (``REMOTE_ADDR``) must be loopback: a client's
    X-Forwarded-For proves nothing. And when that connection is a trusted proxy on this
    machine (TRUSTED_PROXIES), the client it forwards for must be loopback too.
    """
    return _is_loopback(request.META.get("REMOTE_ADDR", "")) and _is_loopback(
        client_address(request)
    )


@never_cache
def mailbox(request: HttpRequest) -> HttpResponse:
    """The emails sent so far, newest first, links clickable.

    404 unless DEBUG is on; 403 with a sentence saying why to any client not on this
    machine (``is_local_client``).
    """
    # Mounted only with DEBUG (piratz_site/urls.py); checked again, as it shows everyone's
    # login links to whoever opens it.
    if not settings.DEBUG:
        raise Http404("The local mailbox exists only with DEBUG on.")
    if not is_local_client(request):
        return HttpResponseForbidden(NOT_LOOPBACK, content_type="text/plain; charset=utf-8")
    directory = mail_directory()
    emails = read_mailbox(directory) if directory is not None and directory.is_dir() else []
    context = {
        "emails": emails,
        "directory": directory,
        "backend": settings.MAILERS.get("default", {}).get("BACKEND", ""),
    }
    return render(request, "notifications/mailbox.html", context)
