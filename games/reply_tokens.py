"""The reply address of a turn email: a signed token naming game, seat, player and version.

The games app writes it on turn emails (``games.notify``); mail-in (``mailin.handler``),
a floor above, reads it back, so it lives here, below both.

The token is the +tag of ``settings.REPLY_ADDRESS`` (``play+<token>@in.example.com``), so it
must survive as the local part of an address: at most 64 characters (RFC 5321), no ``:``
(a ``django.core.signing`` token needs quoting there and is twice too long), and no case
(some mail servers lower-case addresses). So it is 35 bytes in lower-case base32, 56
characters: the payload (game UUID, seat, user id, version, issue time) and the first 8
bytes of an HMAC-SHA256 keyed by ``SECRET_KEY`` (and ``SECRET_KEY_FALLBACKS``) with this
module's own salt, Django's ``salted_hmac``, as ``django.core.signing`` uses it. 64 bits
of signature against an attacker who must send one email per guess: some 2**63 emails.
(Guesses are not counted: ``mailin.handler`` counts a player's messages once the token
and the sender are checked, so that nobody else's mail can use up their allowance.)

The version makes a token single-use in effect: ``do_play_move`` refuses it once the
game has moved on, so a reply to an old email is never applied to a newer state.
"""

import base64
import binascii
import re
import struct
import uuid
from dataclasses import dataclass
from email.utils import getaddresses

from django.conf import settings
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

SALT = "mailin.reply-token"
_PAYLOAD = struct.Struct(">16sBIHI")  # game UUID, seat, user id, version, issued (unix s)
_MAC_BYTES = 8
TOKEN_LENGTH = 56  # base32 of 27 + 8 bytes, no padding; core.redaction knows it too
_TOKEN_RE = re.compile(rf"[a-z2-7]{{{TOKEN_LENGTH}}}")


@dataclass(frozen=True)
class ReplyToken:
    """What a valid token says: who may play which game from which version."""

    game_id: uuid.UUID
    seat: int
    user_id: int
    version: int


def reply_address(game_id, seat: int, user_id: int, version: int) -> str | None:
    """The address whose replies play for ``seat`` from ``version``; None when replying is off.

    Off when ``settings.REPLY_ADDRESS`` is empty, and for numbers the token cannot carry.
    """
    base = settings.REPLY_ADDRESS
    if not base or not (0 <= version < 2**16 and 0 <= seat < 2**8 and 0 <= user_id < 2**32):
        return None
    payload = _PAYLOAD.pack(
        uuid.UUID(str(game_id)).bytes, seat, user_id, version, int(timezone.now().timestamp())
    )
    token = base64.b32encode(payload + _mac(payload, settings.SECRET_KEY)).decode().lower()
    local, _, domain = base.partition("@")
    return f"{local}+{token}@{domain}"


def read_reply_addresses(addresses: list[str]) -> ReplyToken | None:
    """The first valid token among ``addresses`` (header values or bare addresses), or None.

    Only ``REPLY_ADDRESS``'s own local part and domain count (case-insensitive). A token
    with a bad signature, older than ``REPLY_TOKEN_MAX_AGE_DAYS`` or from the future is
    not valid.
    """
    base = settings.REPLY_ADDRESS
    if not base:
        return None
    local, _, domain = base.lower().partition("@")
    for _name, address in getaddresses(addresses):
        tagged, _, at = address.strip().lower().rpartition("@")
        prefix, plus, token = tagged.partition("+")
        if at == domain and prefix == local and plus and _TOKEN_RE.fullmatch(token):
            read = _read(token)
            if read is not None:
                return read
    return None


def _read(token: str) -> ReplyToken | None:
    try:
        raw = base64.b32decode(token.upper())
    except (binascii.Error, ValueError):
        return None
    payload, mac = raw[: _PAYLOAD.size], raw[_PAYLOAD.size :]
    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    if not any(constant_time_compare(mac, _mac(payload, key)) for key in keys):
        return None
    game, seat, user_id, version, issued = _PAYLOAD.unpack(payload)
    age = timezone.now().timestamp() - issued
    if not -300 <= age <= settings.REPLY_TOKEN_MAX_AGE_DAYS * 86400:
        return None
    return ReplyToken(uuid.UUID(bytes=game), seat, user_id, version)


def _mac(payload: bytes, key) -> bytes:
    return salted_hmac(SALT, payload, secret=key, algorithm="sha256").digest()[:_MAC_BYTES]
