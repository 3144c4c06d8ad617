"""Keep live credentials and readable addresses out of what we store and what we log.

One place recognises them, so the outbox (bodies and headers after sending), the admin
(what moderators see) and the log filter (every handler in ``settings.LOGGING``) agree:

- ``redact_tokens(text)``: every Django ``signing`` token, every path segment of our
  token-carrying URLs and every API key becomes ``[redacted]``;
- ``mask_email(address)`` / ``mask_addresses(text)``: ``anna@example.com`` becomes
  ``a***@example.com``, recognisable by its owner, unreadable to anyone else;
- ``redact_text(text)``: both, for free text such as error messages and log lines.

This module imports nothing from the apps: ``RedactingFilter`` is built while logging is
configured, before the apps are loaded.
"""

import copy
import logging
import re

REDACTED = "[redacted]"

# Django's signing.dumps(), Signer.sign() and TimestampSigner.sign() all end a token with
# ":<signature>", the URL-safe base64 (unpadded) of an HMAC-SHA256: exactly 43 characters.
# Recognising the signature, not our salts, covers every present and future kind of signed
# link (login, invitation, game entry, unsubscribe). The whole token goes, not just the
# signature: a login link's payload carries its nonce in plain base64.
# A token runs back to the previous delimiter (space, slash, quote, "?", "&"...); ":" may
# arrive percent-encoded as "%3A" in a request line. Runs between delimiters are found
# first and then searched for a signature: one pass, with no backtracking over long text.
_RUN_RE = re.compile(r"[^\s/?#&=\"'<>()\[\]{},;]+")
_SIGNATURE_RE = re.compile(r"(?::|%3[Aa])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])")
# Our pages whose last path segment is a credential, whatever it looks like (a truncated
# or mangled copy of a token is not usable, but nobody should have to judge that from a
# log). Add a route here when a new page takes a token in its path.
_TOKEN_ROUTES = (
    r"accounts/login",  # accounts:login-link
    r"accounts/delete",  # accounts:erasure-link
    r"invitations",  # games:invitation
    r"substitute",  # games:substitute, an emailed offer of a seat (games.actions.substitutes)
    r"leagues/invitation",  # leagues: a player's invitation to a whole league
    r"tournaments/invitation",  # tournaments: an invitation to an invitation-only one
    r"unsubscribe",  # accounts' one-click unsubscribe
    r"calendar",  # calendars' feed, /calendar/<token>.ics
    r"games/[0-9A-Fa-f-]{36}/enter",  # the signed "open the game signed in" link
)
_TOKEN_ROUTE_RE = re.compile(r"(/(?:" + "|".join(_TOKEN_ROUTES) + r")/)([^/\s?#\"'<>]+)")
# The reply token of a turn email's Reply-To (games.reply_tokens): the +tag of an address, 56
# characters of base32 (games.reply_tokens.TOKEN_LENGTH), any case.
_REPLY_TAG_RE = re.compile(r"(?<=\+)[A-Za-z2-7]{56}(?=@)")
# API keys: accounts.models.ApiToken.KEY_PREFIX + secrets.token_urlsafe(32) (43 characters).
_API_KEY_RE = re.compile(r"pz_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])")
# Good enough to find addresses in free text; it need not validate them.
_ADDRESS_RE = re.compile(
    r"(?<![\w.+-])[\w.+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)+"
)


def redact_tokens(text: str) -> str:
    """``text`` with every live credential replaced by ``[redacted]``; the rest unchanged.

    Replaced: Django ``signing`` tokens (any salt, timestamped or not, compressed or
    not), the token segment of our token-carrying URLs (``/accounts/login/<token>/``,
    ``/invitations/<token>/``, ``/unsubscribe/<token>/``, ``/calendar/<token>.ics``,
    ``/games/<uuid>/enter/<token>/``), the reply token in a reply address
    (``play+<token>@…``) and API keys. Idempotent.
    """
    text = _TOKEN_ROUTE_RE.sub(lambda match: match.group(1) + REDACTED, text)
    text = _REPLY_TAG_RE.sub(REDACTED, text)
    text = _RUN_RE.sub(_redact_signed_token, text)
    return _API_KEY_RE.sub(REDACTED, text)


def _redact_signed_token(run: re.Match) -> str:
    signatures = list(_SIGNATURE_RE.finditer(run.group(0)))
    if not signatures:
        return run.group(0)
    # Everything up to the last signature is token; what follows (a full stop) is text.
    return REDACTED + run.group(0)[signatures[-1].end() :]


def mask_email(email: str) -> str:
    """``anna@example.com`` as ``a***@example.com``: recognisable by its owner, not readable."""
    local, _, domain = email.partition("@")
    return f"{local[:1]}***@{domain}"


def mask_addresses(text: str) -> str:
    """``text`` with every email address in it masked by ``mask_email``. Idempotent."""
    return _ADDRESS_RE.sub(lambda match: mask_email(match.group(0)), text)


def redact_text(text: str) -> str:
    """Free text (an error message, a log line) as it may be stored or logged.

    No live credential (``redact_tokens``) and no readable address (``mask_addresses``).
    """
    return mask_addresses(redact_tokens(text))


class RedactingFilter(logging.Filter):
    """A handler filter: the record leaves with ``redact_text`` applied; it is never dropped.

    Redacts the formatted message (then stored as ``msg`` with no ``args``, so a
    credential inside an argument of any type is caught), the exception and stack text,
    and, when Django attached the request (``django.request``, ``django.security.*``),
    its path, ``META`` (request line, query string, referer, ``Authorization``) and
    ``environ``: on a copy, because the live request may still be in use. Put it on
    every handler: filters on a logger do not see records propagated from its children.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed call; the handler reports it as logging always does
            return True
        clean = redact_text(message)
        if clean != message:
            record.msg, record.args = clean, ()
        if record.exc_info and not record.exc_text:
            # What the formatter would print, computed here so that it can be redacted.
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact_text(record.exc_text)
        if record.stack_info:
            record.stack_info = redact_text(record.stack_info)
        request = getattr(record, "request", None)
        # runserver's django.server records carry a socket as "request": only HttpRequests.
        if isinstance(getattr(request, "path", None), str):
            record.request = _redacted_request(request)
        return True


def _redacted_request(request):
    clean = copy.copy(request)
    clean.path = redact_text(request.path)
    clean.path_info = redact_text(request.path_info)
    meta = {
        key: redact_text(value) if isinstance(value, str) else value
        for key, value in request.META.items()
    }
    clean.META = meta
    if hasattr(request, "environ"):
        clean.environ = meta
    # Parsed once and cached on the live request: the copy parses again from the clean META.
    for cached in ("GET", "COOKIES"):
        clean.__dict__.pop(cached, None)
    return clean
