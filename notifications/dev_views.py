"""The local mailbox (``/dev/mailbox/``, only with DEBUG): the emails `make run` has sent.

It reads the files Django's file backend wrote (``EMAIL_FILE_PATH``, ``var/mail/``), not
the outbox table: once sent, an outbox row has its signed links redacted, while the file
IS the email as sent. Those files are MIME, quoted-printable, so a link copied from one
is broken (``=3D``, soft line breaks); here they are decoded and the links are clickable.

It shows everyone's login links, so it answers only a browser on this machine: `make run
ADDR=0.0.0.0:8000` serves the site to the local network, never the mailbox. The same guard
(``local_debug_only``) keeps the reply form's view (``mailin.dev_views``: an email with a
mail-in Reply-To can be answered from here, as a player's mail client would) as closed.
"""

import email
import email.policy
import functools
import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import getaddresses, parsedate_to_datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from core.proxies import client_address, relayed_by_untrusted_peer

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
    sender: str  # the From header
    sent_at: datetime | None
    body: str  # the plain-text part, decoded from quoted-printable
    message_id: str = ""  # "<…>", as the email's Message-ID header says
    references: str = ""  # its References header: a reply's thread goes on from it
    # Its Reply-To when that is a mail-in address (REPLY_ADDRESS with a +tag), else "":
    # such an email gets the reply form.
    mailin_reply_to: str = ""


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


# A folded header line: a line break followed by the whitespace that continues it.
FOLD = re.compile(r"\r?\n(?=[ \t])")


def unfold(value: object) -> str:
    """A header's field body on one line, as RFC 5322 section 2.2.3 unfolds it (each line
    break that precedes whitespace removed), without the whitespace around it.

    A header folded right after its colon ("Subject:" CRLF " Piratz: ...") is read by the
    email package with the fold's space in front: no subject starts with a space.
    """
    return FOLD.sub("", str(value or "")).strip()


def _parse(raw: bytes) -> MailboxEmail:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    part = message.get_body(preferencelist=("plain", "html"))
    try:
        sent_at = parsedate_to_datetime(str(message["Date"])).astimezone(UTC)
    except (TypeError, ValueError):  # no Date header, or not a date
        sent_at = None
    return MailboxEmail(
        subject=unfold(message["Subject"]),
        to=unfold(message["To"]),
        sender=unfold(message["From"]),
        sent_at=sent_at,
        body=part.get_content() if part is not None else "",
        message_id=unfold(message["Message-ID"]),
        references=unfold(message["References"]),
        mailin_reply_to=_mailin_address(unfold(message["Reply-To"])),
    )


def _mailin_address(reply_to: str) -> str:
    """The address in ``reply_to`` if it is REPLY_ADDRESS with a +tag (a reply token), else "".

    Only the shape is checked: whether the token is valid is mail-in's to say, when the
    reply arrives there.
    """
    local, _, domain = settings.REPLY_ADDRESS.lower().partition("@")
    if not local:
        return ""
    for _name, address in getaddresses([reply_to]):
        tagged, _, at = address.lower().rpartition("@")
        if at == domain and tagged.startswith(local + "+"):
            return address
    return ""


def find_email(directory: Path, message_id: str) -> MailboxEmail | None:
    """The email with Message-ID ``message_id`` among those the mailbox shows, or None."""
    if not message_id:
        return None
    return next((item for item in read_mailbox(directory) if item.message_id == message_id), None)


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
    machine (TRUSTED_PROXIES), the client it forwards for must be loopback too; when it
    sent forwarded headers without being trusted, it is most likely a proxy left out of
    TRUSTED_PROXIES, relaying a client from anywhere.
    """
    return (
        _is_loopback(request.META.get("REMOTE_ADDR", ""))
        and _is_loopback(client_address(request))
        and not relayed_by_untrusted_peer(request)
    )


def local_debug_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Guard of the mailbox's views: 404 unless DEBUG is on; 403 with a sentence saying
    why to any client not on this machine (``is_local_client``). Never cached."""

    @functools.wraps(view)
    def guarded(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        # Mounted only with DEBUG (piratz_site/urls.py); checked again, as they show and
        # use everyone's emails, login links included.
        if not settings.DEBUG:
            raise Http404("The local mailbox exists only with DEBUG on.")
        if not is_local_client(request):
            return HttpResponseForbidden(NOT_LOOPBACK, content_type="text/plain; charset=utf-8")
        return view(request, *args, **kwargs)

    return never_cache(guarded)


@local_debug_only
def mailbox(request: HttpRequest) -> HttpResponse:
    """The emails sent so far, newest first, links clickable; under each email with a
    mail-in Reply-To, a form to reply to it (``mailin.dev_views.mailbox_reply``).

    Guarded by ``local_debug_only``.
    """
    directory = mail_directory()
    emails = read_mailbox(directory) if directory is not None and directory.is_dir() else []
    context = {
        "emails": emails,
        "directory": directory,
        "backend": settings.MAILERS.get("default", {}).get("BACKEND", ""),
    }
    return render(request, "notifications/mailbox.html", context)
