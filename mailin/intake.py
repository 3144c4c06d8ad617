"""Inbound mail read within bounds: anyone can send us anything, so every read is bounded.

A message may be huge, nested thousands of parts deep, name 20,000 recipients, have two
senders or none, carry NUL bytes or name a charset Python does not know. ``read_raw``
refuses what is too big to parse safely and ``check_message`` what is too big to read;
the readers below take what the handler needs in bounded work, from raw header values
(the email package's structured parse of a long hostile header takes seconds). What
cannot be read raises ``UnreadableMessage``: both doors drop it with one log line
(``log_unreadable``; the pipe exits 0, the webhook answers 406), so neither the mail
server nor Mailgun tries again, and nobody is answered.
"""

import logging
import re
from email.utils import getaddresses

from anymail.inbound import AnymailInboundMessage
from django.conf import settings

from .parser import text_of_html

logger = logging.getLogger(__name__)

# A reply is one part or an alternative of two; a forwarded thread a few more.
MAX_MIME_DEPTH = 20
MAX_MIME_PARTS = 100
# Python's parser recurses once per nested multipart/* or message/* part, and each level
# needs its own Content-Type line saying so: counting those lines in the raw bytes bounds
# the depth before parsing (3,000 levels exhaust the stack).
MAX_MIME_CONTAINERS = 20
_CONTAINER_RE = re.compile(
    rb"^content-type:[ \t]*(?:\r?\n[ \t]+)*(?:multipart|message)/", re.IGNORECASE | re.MULTILINE
)
MAX_HEADERS = 200  # per part; a long relay path has a few dozen Received lines
MAX_HEADER_CHARS = 16_000  # one header, folded lines included; a long References fits
MAX_RECIPIENTS = 20  # addresses looked at for the reply token
RECIPIENT_HEADERS = frozenset({"to", "cc", "delivered-to", "x-original-to", "envelope-to"})
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")
_MESSAGE_ID_RE = re.compile(r"<[^<>\s\x00-\x1f\x7f]{1,250}>")


class UnreadableMessage(ValueError):
    """Mail we do not read; ``reason`` is a word for the log (never the sender or a token)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def log_unreadable(error: UnreadableMessage) -> None:
    """The one log line of a message dropped as unreadable."""
    logger.warning("Inbound email dropped: unreadable (%s)", error.reason)


def read_raw(raw: bytes | str) -> AnymailInboundMessage:
    """The message in ``raw`` (RFC 5322), parsed once it is known to be safe to parse and
    checked by ``check_message``; raises ``UnreadableMessage``."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogateescape")
    if len(raw) > settings.MAILIN_MAX_MESSAGE_BYTES:
        raise UnreadableMessage("too_large")
    for count, _match in enumerate(_CONTAINER_RE.finditer(raw), start=1):
        if count > MAX_MIME_CONTAINERS:
            raise UnreadableMessage("too_many_parts")
    message = AnymailInboundMessage.parse_raw_mime_bytes(raw)
    check_message(message)
    return message


def check_message(message: AnymailInboundMessage) -> None:
    """Raise ``UnreadableMessage`` unless every part of ``message`` is within the bounds:
    ``MAX_MIME_DEPTH``, ``MAX_MIME_PARTS``, ``MAX_HEADERS`` and ``MAX_HEADER_CHARS``."""
    pending, parts = [(message, 1)], 0
    while pending:  # a loop, not recursion: no stack to exhaust
        part, depth = pending.pop()
        parts += 1
        if depth > MAX_MIME_DEPTH:
            raise UnreadableMessage("too_deep")
        if parts > MAX_MIME_PARTS:
            raise UnreadableMessage("too_many_parts")
        headers = part.raw_items()
        for count, (_name, value) in enumerate(headers, start=1):
            if count > MAX_HEADERS:
                raise UnreadableMessage("too_many_headers")
            if len(value) > MAX_HEADER_CHARS:
                raise UnreadableMessage("header_too_long")
        if part.is_multipart():
            pending.extend((child, depth + 1) for child in part.get_payload())


def sender_of(message: AnymailInboundMessage) -> str:
    """The one address in the one ``From`` header; raises ``UnreadableMessage`` for none,
    several, one without a local part and a domain, or one with control characters."""
    values = _raw_values(message, "from")
    addresses = _addresses(values[0], limit=2) if len(values) == 1 else []
    if len(addresses) != 1:
        raise UnreadableMessage("bad_sender")
    address = addresses[0].strip()
    local, at, domain = address.rpartition("@")
    if not (local and at and domain) or _CONTROL_RE.search(address) or " " in address:
        raise UnreadableMessage("bad_sender")
    return address


def recipients_of(message: AnymailInboundMessage) -> list[str]:
    """The first ``MAX_RECIPIENTS`` addresses the message was sent to: the envelope
    recipient the provider or the pipe gave, then ``To``, ``Cc``, ``Delivered-To``,
    ``X-Original-To`` and ``Envelope-To`` in the order the message has them."""
    envelope = getattr(message, "envelope_recipient", None)
    found = [envelope] if envelope else []
    for name, value in message.raw_items():
        if len(found) >= MAX_RECIPIENTS:
            break
        if name.lower() in RECIPIENT_HEADERS:
            found += _addresses(_text(value), limit=MAX_RECIPIENTS - len(found))
    return found[:MAX_RECIPIENTS]


def message_id_of(message: AnymailInboundMessage) -> str:
    """The ``<id@host>`` of the first ``Message-ID`` header, or ``""``: safe to store and to
    send back in a header (no whitespace, no NUL, at most 252 characters)."""
    values = _raw_values(message, "message-id")
    match = _MESSAGE_ID_RE.search(values[0]) if values else None
    return match.group(0) if match else ""


def body_text(message: AnymailInboundMessage) -> str:
    """What the sender wrote: the first text/plain part that is not an attachment, else the
    text of the first text/html one; decoded whatever its charset claims, with no NUL."""
    first_html = None
    for part in message.walk():
        if part.is_multipart() or part.is_attachment():
            continue
        kind = part.get_content_type()
        if kind == "text/plain":
            return without_nul(_decoded(part))
        if kind == "text/html" and first_html is None:
            first_html = part
    return without_nul(text_of_html(_decoded(first_html))) if first_html is not None else ""


def without_nul(text: str) -> str:
    """``text`` without NUL characters, which PostgreSQL refuses in text and JSON columns."""
    return text.replace("\x00", "")


def _decoded(part) -> str:
    payload = part.get_payload(decode=True) or b""
    try:
        text = payload.decode(part.get_content_charset("us-ascii"), errors="replace")
    except (LookupError, ValueError):
        # A charset Python does not know (LookupError), or a codec that takes no "replace"
        # (idna: UnicodeError). Most mail is UTF-8; the rest shows replacement characters.
        text = payload.decode("utf-8", errors="replace")
    return re.sub(r"\r\n|\r", "\n", text)


def _raw_values(message: AnymailInboundMessage, lower_name: str) -> list[str]:
    return [_text(value) for name, value in message.raw_items() if name.lower() == lower_name]


def _addresses(value: str, *, limit: int) -> list[str]:
    """At most ``limit`` addr-specs from one header value (at most ``MAX_HEADER_CHARS``
    long, so parsing it is bounded too); display names and groups dropped."""
    return [address for _name, address in getaddresses([value])[:limit]]


def _text(value: str) -> str:
    # Raw header values keep 8-bit bytes as surrogate escapes; folding is undone.
    try:
        value = value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a lone surrogate of another kind (a JSON-built message)
        value = value.encode("utf-8", "replace").decode("utf-8")
    return re.sub(r"\r?\n[ \t]*", " ", value)
