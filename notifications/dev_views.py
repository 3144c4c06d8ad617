"""The local mailbox (``/dev/mailbox/``, only with DEBUG): the emails `make run` has sent.

It reads the files Django's file backend wrote (``EMAIL_FILE_PATH``, ``var/mail/``), not
the outbox table: once sent, an outbox row has its signed links redacted, while the file
IS the email as sent. Those files are MIME, quoted-printable, so a link copied from one
is broken (``=3D``, soft line breaks); here they are decoded and the links are clickable.
"""

import email
import email.policy
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

FILE_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
# The file backend writes this line after every message (console backend's separator).
SEPARATOR = b"\n" + b"-" * 79 + b"\n"
SHOWN = 50  # newest emails on the page


@dataclass(frozen=True)
class MailboxEmail:
    """One email as the file backend wrote it, decoded."""

    subject: str
    to: str
    sent_at: datetime | None
    body: str  # the plain-text part, decoded from quoted-printable


def mail_directory() -> Path | None:
    """Where the default mailer writes emails, or None if it does not write files."""
    mailer = settings.MAILERS.get("default", {})
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


@never_cache
def mailbox(request: HttpRequest) -> HttpResponse:
    """The emails sent so far, newest first, links clickable. 404 unless DEBUG is on."""
    # Mounted only with DEBUG (piratz_site/urls.py); checked again, as it shows everyone's
    # login links to whoever opens it.
    if not settings.DEBUG:
        raise Http404("The local mailbox exists only with DEBUG on.")
    directory = mail_directory()
    emails = read_mailbox(directory) if directory is not None and directory.is_dir() else []
    context = {
        "emails": emails,
        "directory": directory,
        "backend": settings.MAILERS.get("default", {}).get("BACKEND", ""),
    }
    return render(request, "notifications/mailbox.html", context)
